/**
 * A value as JSON text that Postgres' jsonb accepts. jsonb refuses the escape `\u0000` and unpaired
 * UTF-16 surrogates (`\ud800`), which a client's text may legally carry: a record kept as jsonb
 * holds U+FFFD in their place (keys too) rather than failing the request.
 */
export function jsonbText(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'string') return clean(v);
    if (v && typeof v === 'object' && !Array.isArray(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [clean(k), x]));
    return v;
  });
}

/** Lone surrogates and NUL → U+FFFD (String.prototype.toWellFormed without needing the ES2024 lib). */
function clean(s: string): string {
  // eslint-disable-next-line no-control-regex -- NUL is exactly what jsonb refuses
  return s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|\u0000/g, '\ufffd');
}
