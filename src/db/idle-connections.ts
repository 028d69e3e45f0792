/**
 * How long a PostgreSQL connection of any of our pools (the main pool, the replica's, the heavy
 * reader's) may sit unused before the pool closes it. The driver's default is 10 s, and its
 * pool hands out the connection returned last: under a steady load the few at the bottom of
 * the pool idle past 10 s between bursts, close, and open again at the next burst, each new
 * backend building its catalog caches and preparing the hot statements anew on a request's
 * path (a PostgreSQL soak at 35 requests/s opened 14 sessions a minute). Five minutes keeps
 * what a load uses and still gives connections back after a quiet spell.
 */
export const IDLE_CONNECTION_MS = 5 * 60_000;
