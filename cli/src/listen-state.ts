import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { keyFingerprint } from './local-secret.js';

/** Where listen resumes: just after the last event the local handler answered. */
export interface ListenPosition {
  lastEventId: string;
  /** `publishedAt` of that event plus one microsecond: GET /events `since` for the next one. */
  since: string;
  savedAt: string;
}

export function stateDirOf(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  if (flag) return flag;
  if (env.SDAPI_CLI_HOME) return env.SDAPI_CLI_HOME;
  const config = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(config, 'sdapi-seller');
}

/**
 * One small JSON file per key and service address, named by a hash (never the key), holding
 * only the position: no secret, no payload.
 */
export class ListenState {
  readonly file: string;

  constructor(
    private readonly dir: string,
    apiKey: string,
    baseUrl: string,
  ) {
    this.file = join(dir, `listen-${keyFingerprint(apiKey, baseUrl)}.json`);
  }

  read(): ListenPosition | null {
    let parsed: Partial<ListenPosition>;
    try {
      parsed = JSON.parse(readFileSync(this.file, 'utf8')) as Partial<ListenPosition>;
    } catch {
      return null; // none yet, or unreadable: listen starts from now and says so
    }
    return typeof parsed.since === 'string' && typeof parsed.lastEventId === 'string'
      ? (parsed as ListenPosition)
      : null;
  }

  /** Written whole then renamed, so a kill mid-write leaves the previous position. */
  save(position: Omit<ListenPosition, 'savedAt'>): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify({ ...position, savedAt: new Date().toISOString() })}\n`, {
      mode: 0o600,
    });
    renameSync(temporary, this.file);
  }
}

/** One microsecond after an RFC 3339 instant with up to six fraction digits. */
export function justAfter(instant: string): string {
  const match = /^(.*T\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?Z$/.exec(instant);
  if (!match) throw new Error(`not a UTC instant: ${instant}`);
  const micros = BigInt(Date.parse(`${match[1]}Z`)) * 1000n + BigInt((match[2] ?? '').padEnd(6, '0'));
  const next = micros + 1n;
  const seconds = new Date(Number(next / 1_000_000n) * 1000).toISOString().slice(0, 19);
  return `${seconds}.${(next % 1_000_000n).toString().padStart(6, '0')}Z`;
}
