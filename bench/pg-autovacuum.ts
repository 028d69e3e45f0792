// What PostgreSQL's autovacuum would do, done by hand: this machine runs with autovacuum off, so
// the order-growth bench wakes every `autovacuum_naptime` and vacuums (or analyzes) each table of
// its schema whose dead or inserted tuples passed the thresholds autovacuum would apply, reading the
// per-table settings migration 0024 gives the hot tables and the server's defaults for the rest.
import pg from 'pg';

interface TableState {
  relname: string;
  reltuples: number;
  dead: number;
  insertedSinceVacuum: number;
  modifiedSinceAnalyze: number;
  options: Record<string, number>;
}

const DEFAULT_SETTINGS = [
  'autovacuum_vacuum_threshold',
  'autovacuum_vacuum_scale_factor',
  'autovacuum_vacuum_insert_threshold',
  'autovacuum_vacuum_insert_scale_factor',
  'autovacuum_analyze_threshold',
  'autovacuum_analyze_scale_factor',
  'autovacuum_naptime',
] as const;

export interface AutovacuumLog {
  vacuums: Record<string, number>;
  analyzes: Record<string, number>;
}

/** Starts the loop; `stop()` ends it after the pass in progress. */
export async function startAutovacuum(url: string, schema: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const settings: Record<string, number> = {};
  for (const name of DEFAULT_SETTINGS) {
    const { rows } = await client.query(`select setting::float8 as value from pg_settings where name = $1`, [
      name,
    ]);
    settings[name] = Number(rows[0].value);
  }
  const log: AutovacuumLog = { vacuums: {}, analyzes: {} };
  let stopped = false;
  let pass: Promise<void> = Promise.resolve();
  const timer = setInterval(
    () => {
      pass = pass.then(() => (stopped ? undefined : autovacuumPass(client, schema, settings, log)));
    },
    (settings.autovacuum_naptime ?? 60) * 1000,
  );
  return {
    log,
    /** Runs one pass now (the bench calls it before measuring, as a quiet table would have had). */
    passNow: () => {
      pass = pass.then(() => autovacuumPass(client, schema, settings, log));
      return pass;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await pass;
      await client.end();
    },
  };
}

async function autovacuumPass(
  client: pg.Client,
  schema: string,
  defaults: Record<string, number>,
  log: AutovacuumLog,
): Promise<void> {
  for (const table of await tableStates(client, schema)) {
    const option = (name: string) => table.options[name] ?? defaults[name] ?? 0;
    const tuples = Math.max(table.reltuples, 0);
    const vacuum =
      table.dead >
        option('autovacuum_vacuum_threshold') + option('autovacuum_vacuum_scale_factor') * tuples ||
      table.insertedSinceVacuum >
        option('autovacuum_vacuum_insert_threshold') +
          option('autovacuum_vacuum_insert_scale_factor') * tuples;
    const analyze =
      table.modifiedSinceAnalyze >
      option('autovacuum_analyze_threshold') + option('autovacuum_analyze_scale_factor') * tuples;
    const name = `"${schema}"."${table.relname}"`;
    if (vacuum) {
      await client.query(`vacuum ${analyze ? '(analyze) ' : ''}${name}`);
      log.vacuums[table.relname] = (log.vacuums[table.relname] ?? 0) + 1;
    } else if (analyze) {
      await client.query(`analyze ${name}`);
    }
    if (analyze) log.analyzes[table.relname] = (log.analyzes[table.relname] ?? 0) + 1;
  }
}

async function tableStates(client: pg.Client, schema: string): Promise<TableState[]> {
  const { rows } = await client.query(
    `select c.relname, c.reltuples::float8 as reltuples, s.n_dead_tup::float8 as dead,
            s.n_ins_since_vacuum::float8 as inserted, s.n_mod_since_analyze::float8 as modified,
            coalesce(c.reloptions, '{}') as options
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       join pg_stat_user_tables s on s.relid = c.oid
      where n.nspname = $1 and c.relkind = 'r'`,
    [schema],
  );
  return rows.map((row) => ({
    relname: row.relname,
    reltuples: Number(row.reltuples),
    dead: Number(row.dead),
    insertedSinceVacuum: Number(row.inserted),
    modifiedSinceAnalyze: Number(row.modified),
    options: Object.fromEntries(
      (row.options as string[]).map((pair) => {
        const [key, value] = pair.split('=');
        return [key, Number(value)];
      }),
    ),
  }));
}
