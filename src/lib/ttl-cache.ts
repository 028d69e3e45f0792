interface Entry<V> {
  value: V;
  expiresAt: number;
}

/**
 * A small time-bounded cache for hot reads (identity, catalog facts). Writers on this process
 * delete what they change; other processes converge within the TTL.
 */
export class TtlCache<V = unknown> {
  private readonly entries = new Map<string, Entry<V>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 20_000,
  ) {}

  get(key: string, nowMs: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= nowMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V, nowMs: number, ttlMs = this.ttlMs): void {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, expiresAt: nowMs + ttlMs });
  }

  async getOrLoad(key: string, nowMs: number, load: () => Promise<V>, ttlMs = this.ttlMs): Promise<V> {
    const cached = this.get(key, nowMs);
    if (cached !== undefined) return cached;
    const value = await load();
    this.set(key, value, nowMs, ttlMs);
    return value;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}
