import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from './config.js';
import { randomToken } from './lib/crypto.js';

// Apart from bootstrap.ts (the demo seller), which loads the identity and key modules: the CLI
// reads its secrets here before it knows whether a command needs any module at all.

function loadOrCreateSecret(dataDir: string, file: string, generate: () => string): string {
  const path = join(dataDir, file);
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const value = generate();
  writeFileSync(path, `${value}\n`, { mode: 0o600 });
  return value;
}

/**
 * Embedded mode needs no setup: secrets that are not in the environment are generated once
 * into the data directory (mode 0600) and reused on every start.
 */
export function withEmbeddedSecrets(config: Config): Config {
  if (config.database.engine !== 'sqlite') return config;
  return {
    ...config,
    adminToken:
      config.adminToken ?? loadOrCreateSecret(config.dataDir, 'admin-token', () => `adm_${randomToken(24)}`),
    masterKeyHex:
      config.masterKeyHex ??
      loadOrCreateSecret(config.dataDir, 'master.key', () => randomBytes(32).toString('hex')),
    ipPepper: config.ipPepper ?? loadOrCreateSecret(config.dataDir, 'ip-pepper', () => randomToken(32)),
  };
}
