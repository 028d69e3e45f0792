/**
 * `compute(object, key)` remembered per object (held weakly) and key: a cached principal's
 * allowlist, a cached catalog stamp. At most `limit` keys are kept per object; past that its
 * memory starts over.
 */
export function memoPerObject<O extends object, K, V>(
  compute: (object: O, key: K) => V,
  limit: number,
): (object: O, key: K) => V {
  const byObject = new WeakMap<O, Map<K, V>>();
  return (object, key) => {
    let values = byObject.get(object);
    if (!values) {
      values = new Map();
      byObject.set(object, values);
    }
    let value = values.get(key);
    if (value !== undefined || values.has(key)) return value as V;
    value = compute(object, key);
    if (values.size >= limit) values.clear();
    values.set(key, value);
    return value;
  };
}
