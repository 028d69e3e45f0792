import type { Principal } from './principal.js';

interface Entry {
  principal: Principal;
  cachedAt: number;
}

/**
 * Principals by token hash for about 60 s. Revocation and rotation drop the
 * entry at once in this process; other processes drop it through `onInvalidate` (Redis
 * pub/sub when configured) or when the TTL runs out. Expiry and the IP allowlist are
 * checked on every request, cache hit or not.
 */
export class AuthCache {
  private readonly byHash = new Map<string, Entry>();
  private readonly listeners: ((target: string) => void)[] = [];

  constructor(
    private readonly ttlMs = 60_000,
    private readonly maxEntries = 50_000,
  ) {}

  get(tokenHash: string, nowMs: number): Principal | undefined {
    const entry = this.byHash.get(tokenHash);
    if (!entry) return undefined;
    if (nowMs - entry.cachedAt >= this.ttlMs || nowMs < entry.cachedAt) {
      this.byHash.delete(tokenHash);
      return undefined;
    }
    return entry.principal;
  }

  set(tokenHash: string, principal: Principal, nowMs: number): void {
    if (this.byHash.size >= this.maxEntries) {
      const oldest = this.byHash.keys().next().value;
      if (oldest !== undefined) this.byHash.delete(oldest);
    }
    this.byHash.set(tokenHash, { principal, cachedAt: nowMs });
  }

  /** Forgets every cached token of the key here, and tells other processes to do the same. */
  invalidateKey(keyId: string): void {
    this.drop(keyId);
    for (const listener of this.listeners) listener(keyId);
  }

  /** Forgets every cached key of a company (production access or name changed). */
  invalidateCompany(companyId: string): void {
    this.drop(`company:${companyId}`);
    for (const listener of this.listeners) listener(`company:${companyId}`);
  }

  /** Drops by key id, or by `company:<id>` for all keys of a company (the pub/sub message form). */
  drop(target: string): void {
    const companyId = target.startsWith('company:') ? target.slice('company:'.length) : null;
    for (const [hash, entry] of this.byHash) {
      if (companyId ? entry.principal.companyId === companyId : entry.principal.keyId === target)
        this.byHash.delete(hash);
    }
  }

  onInvalidate(listener: (target: string) => void): void {
    this.listeners.push(listener);
  }
}
