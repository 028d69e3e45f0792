import type { Principal } from './principal.js';

interface Entry {
  principal: Principal;
  cachedAt: number;
}

/**
 * Principals by token hash for about 60 s (SPEC 5.7). Revocation and rotation drop the
 * entry at once in this process; other processes drop it through `onInvalidate` (Redis
 * pub/sub when configured) or when the TTL runs out. Expiry and the IP allowlist are
 * checked on every request, cache hit or not.
 */
export class AuthCache {
  private readonly byHash = new Map<string, Entry>();
  private readonly listeners: ((keyId: string) => void)[] = [];

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
    this.dropKeyLocally(keyId);
    for (const listener of this.listeners) listener(keyId);
  }

  dropKeyLocally(keyId: string): void {
    for (const [hash, entry] of this.byHash) {
      if (entry.principal.keyId === keyId) this.byHash.delete(hash);
    }
  }

  onInvalidate(listener: (keyId: string) => void): void {
    this.listeners.push(listener);
  }
}
