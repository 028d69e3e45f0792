import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ENV_VARIABLES, loadConfig } from '../../src/config.js';

// No Docker here: these read the deployment files as Docker and Compose would and check what
// they promise (docs/operations.md).

interface Service {
  build?: string;
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: unknown;
  stop_grace_period?: string;
  networks?: unknown;
  user?: string;
  volumes?: string[];
}

const compose = parse(readFileSync('compose.yaml', 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
};
const services = compose.services;
const apis = ['api-1', 'api-2'].map((name) => services[name]!);
const dockerfile = readFileSync('Dockerfile', 'utf8');
const nginx = readFileSync('deploy/nginx.conf', 'utf8');

/** Variable names of the README's configuration table. */
function documentedVariables(): string[] {
  const readme = readFileSync('README.md', 'utf8');
  const table = readme.slice(readme.indexOf('## Configuration'));
  const rows = table.split('\n').filter((line) => line.startsWith('| `'));
  return rows.flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/`([A-Z_]+)`/g)].map((m) => m[1]!));
}

describe('compose.yaml', () => {
  it('runs a primary, a streaming standby, PgBouncer, Redis, a one-shot migration and two API processes behind one entry', () => {
    expect(Object.keys(services).sort()).toEqual([
      'api-1',
      'api-2',
      'entry',
      'migrate',
      'pgbouncer',
      'postgres',
      'postgres-standby',
      'redis',
    ]);
    const password = '\\$\\{POSTGRES_PASSWORD:\\?[^}]+\\}';
    for (const api of apis) {
      expect(api.build).toBe('.');
      expect(api.command).toBeUndefined(); // the image's CMD: node dist/server.js
      // Requests through PgBouncer; what needs a session through its session entry; heavy reads on the standby.
      expect(api.environment?.DATABASE_URL).toMatch(
        new RegExp(`^postgres://sdapi:${password}@pgbouncer:6432/sdapi$`),
      );
      expect(api.environment?.DATABASE_POOLER).toBe('transaction');
      expect(api.environment?.DATABASE_DIRECT_URL).toMatch(
        new RegExp(`^postgres://sdapi:${password}@pgbouncer:6432/sdapi_session$`),
      );
      expect(api.environment?.DATABASE_REPLICA_URL).toMatch(
        new RegExp(`^postgres://sdapi:${password}@postgres-standby:5432/sdapi$`),
      );
      expect(api.environment?.REDIS_URL).toBe('redis://redis:6379');
      expect(api.depends_on).toMatchObject({
        migrate: { condition: 'service_completed_successfully' },
        redis: { condition: 'service_healthy' },
        pgbouncer: { condition: 'service_started' },
      });
      // The operator listener is published on the host's loopback only; the seller port not at all.
      expect(
        api.ports?.every((p) => p.startsWith('127.0.0.1:') && p.endsWith(`:${api.environment?.ADMIN_PORT}`)),
      ).toBe(true);
    }
    expect(services.migrate?.command).toEqual(['node', 'bin/sdapi.js', 'migrate']);
    expect(services.migrate?.depends_on).toMatchObject({
      postgres: { condition: 'service_healthy' },
      pgbouncer: { condition: 'service_started' },
    });
    expect(services.entry?.ports).toEqual(['8080:8080']);
    expect(services.entry?.depends_on).toMatchObject({
      'api-1': { condition: 'service_healthy' },
      'api-2': { condition: 'service_healthy' },
    });
    for (const api of ['api-1', 'api-2'])
      expect(nginx).toMatch(new RegExp(`^\\s*server ${api}:${apis[0]!.environment?.PORT}[ ;]`, 'm'));
    expect(nginx).toMatch(/listen 8080;/);
    expect(nginx).toMatch(/proxy_set_header X-Forwarded-For \$remote_addr;/);
    expect(nginx).not.toMatch(/log_format[^;]*remote_addr/);
  });

  it('streams the primary to a hot standby that replication is allowed for', () => {
    const standby = services['postgres-standby']!;
    expect(standby.user).toBe('postgres');
    expect(standby.depends_on).toMatchObject({ postgres: { condition: 'service_healthy' } });
    expect(standby.volumes).toContain('./deploy/postgres/standby-entrypoint.sh:/standby-entrypoint.sh:ro');
    const entry = readFileSync('deploy/postgres/standby-entrypoint.sh', 'utf8');
    expect(entry).toMatch(/pg_basebackup -h postgres -p 5432 -U sdapi -D "\$PGDATA" -R -X stream/);
    expect(entry).toMatch(/cluster_name=standby1/);
    expect(services.postgres?.volumes).toContain(
      './deploy/postgres/allow-replication.sh:/docker-entrypoint-initdb.d/allow-replication.sh:ro',
    );
    expect(readFileSync('deploy/postgres/allow-replication.sh', 'utf8')).toMatch(
      /^echo "host replication sdapi all scram-sha-256" >> "\$PGDATA\/pg_hba.conf"$/m,
    );
  });

  it('pools transactions in PgBouncer in front of the primary, with the password kept out of the image', () => {
    const bouncer = services.pgbouncer!;
    expect(bouncer.build).toBe('./deploy/pgbouncer');
    expect(bouncer.depends_on).toMatchObject({ postgres: { condition: 'service_healthy' } });
    const ini = readFileSync('deploy/pgbouncer/pgbouncer.ini', 'utf8');
    const setting = (name: string) => ini.match(new RegExp(`^${name} = (.+)$`, 'm'))?.[1];
    expect(ini).toMatch(/^sdapi = host=postgres port=5432 dbname=sdapi$/m);
    // Sessions (LISTEN, migrations) through the same pooler, so one reload moves them too.
    expect(ini).toMatch(/^sdapi_session = host=postgres port=5432 dbname=sdapi pool_mode=session$/m);
    expect(setting('pool_mode')).toBe('transaction');
    expect(setting('listen_port')).toBe('6432');
    expect(setting('default_pool_size')).toBe('20');
    expect(setting('auth_type')).toBe('scram-sha-256');
    const image = readFileSync('deploy/pgbouncer/Dockerfile', 'utf8');
    expect(image).toMatch(/apt-get install -y --no-install-recommends pgbouncer/);
    expect(image).toMatch(/^USER postgres$/m);
    expect(image).not.toMatch(/PASSWORD/);
    expect(readFileSync('deploy/pgbouncer/entrypoint.sh', 'utf8')).toMatch(
      /> \/tmp\/pgbouncer\/userlist\.txt/,
    );
  });

  it('passes secrets by environment, and every variable it sets is one the config schema reads and accepts', () => {
    for (const api of apis) {
      const env = api.environment ?? {};
      for (const name of Object.keys(env)) expect(ENV_VARIABLES, name).toContain(name);
      for (const secret of ['SDAPI_ADMIN_TOKEN', 'SDAPI_MASTER_KEY', 'SDAPI_IP_PEPPER']) {
        expect(env[secret], secret).toMatch(new RegExp(`^\\$\\{${secret}:\\?`));
      }
      // With the secrets filled in as deploy/env.example says, the schema accepts the whole set.
      const filled = Object.fromEntries(
        Object.entries(env).map(([k, v]) => [
          k,
          v
            .replace(/\$\{SDAPI_MASTER_KEY:\?[^}]*\}/, 'ab'.repeat(32))
            .replace(/\$\{(\w+):[?-]([^}]*)\}/g, (_, name: string, fallback: string) =>
              name === 'PUBLIC_URL' ? fallback : `${name.toLowerCase()}-0123456789abcdef`,
            ),
        ]),
      );
      const config = loadConfig(filled);
      expect(config).toMatchObject({ adminHost: '0.0.0.0', adminPort: 8081, port: 8080, seedOnStart: false });
      expect(config.database.engine).toBe('postgres');
    }
    const example = readFileSync('deploy/env.example', 'utf8');
    const referenced = new Set(
      [...readFileSync('compose.yaml', 'utf8').matchAll(/\$\{(\w+)/g)].map((m) => m[1]),
    );
    for (const name of referenced) expect(example, name).toMatch(new RegExp(`^${name}=`, 'm'));
  });
});

describe('Dockerfile', () => {
  it('is multi-stage, runs as a non-root user, starts node dist/server.js and checks readiness', () => {
    expect(dockerfile.match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(2);
    expect(dockerfile).toMatch(/npm prune --omit=dev/);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^CMD \["node", "dist\/server\.js"\]$/m);
    // The console's sources reach the build and its built files the runtime (served at /console).
    expect(dockerfile).toMatch(/^COPY console \.\/console$/m);
    expect(dockerfile).toMatch(/^COPY --from=build \/app\/console\/dist \.\/console\/dist$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\n?.*\/health\/ready/m);
    expect(readFileSync('.dockerignore', 'utf8').split('\n')).toEqual(
      expect.arrayContaining(['node_modules', 'dist', 'data']),
    );
  });
});

describe('documented environment', () => {
  it('the README documents exactly the variables the config schema reads', () => {
    expect(documentedVariables().sort()).toEqual([...ENV_VARIABLES].sort());
  });

  it('the operator listener binds to loopback unless told otherwise', () => {
    expect(loadConfig({})).toMatchObject({
      adminHost: '127.0.0.1',
      adminPort: 8081,
      host: '0.0.0.0',
      port: 8080,
    });
  });

  it('a read replica is PostgreSQL only, with a 5 s lag bound unless told otherwise', () => {
    const pg = { DATABASE_URL: 'postgres://db/app', DATABASE_REPLICA_URL: 'postgres://replica/app' };
    expect(loadConfig(pg).replica).toEqual({ url: 'postgres://replica/app', maxLagMs: 5000 });
    expect(loadConfig({ ...pg, DATABASE_REPLICA_MAX_LAG_MS: '800' }).replica?.maxLagMs).toBe(800);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/app' }).replica).toBeUndefined();
    expect(() => loadConfig({ DATABASE_REPLICA_URL: 'postgres://replica/app' })).toThrow(
      /DATABASE_REPLICA_URL needs a PostgreSQL DATABASE_URL/,
    );
  });
});
