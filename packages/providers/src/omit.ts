/**
 * A shallow copy of `source` without `keys`, its other own keys in their order. The same result as
 * `const { a, b, ...rest } = source`, which V8 runs ~10x slower (a generic copy with a key check per
 * property): this runs on every streamed chunk.
 */
export function omit<T extends object, K extends keyof T>(source: T, keys: ReadonlySet<K>): Without<T, K> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(source)) if (!keys.has(key as K)) out[key] = (source as Record<string, unknown>)[key];
  return out as Without<T, K>;
}

/** `Omit` that keeps the other known keys of a type with an index signature (a loose zod object). */
export type Without<T, K extends keyof T> = { [P in keyof T as P extends K ? never : P]: T[P] };
