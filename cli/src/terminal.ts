import type { Writable } from 'node:stream';

/** Where a command writes, and how: colours only on a terminal and never under NO_COLOR. */
export interface Terminal {
  out: Writable & { isTTY?: boolean };
  err: Writable & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  /** Machine-readable output: one JSON document per line on stdout. */
  json: boolean;
}

const CODES = { red: 31, green: 32, yellow: 33, dim: 2, bold: 1, cyan: 36 } as const;
export type Colour = keyof typeof CODES;

export function colours(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv) {
  const on = stream.isTTY === true && !('NO_COLOR' in env && env.NO_COLOR !== '') && env.TERM !== 'dumb';
  return (colour: Colour, text: string) => (on ? `\u001b[${CODES[colour]}m${text}\u001b[0m` : text);
}

/** A line for people (stdout), or nothing in --json mode. */
export function say(t: Terminal, line: string): void {
  if (!t.json) t.out.write(`${line}\n`);
}

/** A notice for people: stderr, so stdout stays the command's output. */
export function notice(t: Terminal, line: string): void {
  t.err.write(`${colours(t.err, t.env)('yellow', line)}\n`);
}

/** One JSON document per line in --json mode; the human line otherwise. */
export function emit(t: Terminal, value: unknown, human: string): void {
  t.out.write(t.json ? `${JSON.stringify(value)}\n` : `${human}\n`);
}

/** A status coloured by class: 2xx green, 4xx yellow, other red. */
export function statusColour(status: number | null): Colour {
  if (status !== null && status >= 200 && status < 300) return 'green';
  if (status !== null && status >= 400 && status < 500) return 'yellow';
  return 'red';
}
