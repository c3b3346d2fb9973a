/**
 * `compute` remembered per key, for at most `keys` keys of at most `keyLength` characters: the
 * keys are what clients send (paths), so the memory is bounded in count and size, and starts
 * over when full. A longer key is computed each time. `compute` never answers undefined, which
 * stands for "not known" (one lookup per call).
 */
export function boundedMemo<T extends object | string | number | boolean | null>(
  compute: (key: string) => T,
  limits: { keys: number; keyLength: number },
): (key: string) => T {
  const known = new Map<string, T>();
  return (key) => {
    const hit = known.get(key);
    if (hit !== undefined) return hit;
    const value = compute(key);
    if (key.length > limits.keyLength) return value;
    if (known.size >= limits.keys) known.clear();
    known.set(key, value);
    return value;
  };
}
