/**
 * Names clients send without being asked. SPEC.md §4: a command-line coding assistant is pointed at
 * /v1/messages with only a base URL and a key, so it asks for its vendor's own model names (dated ids
 * that change with every release); a trailing `*` matches by prefix so new dates keep working.
 * UNIGATE_CONFIG `aliases` adds to these and overrides them key by key.
 */
export const DEFAULT_ALIASES: Readonly<Record<string, string>> = {
  'claude-opus-*': 'sigma-opus-4-7',
  'claude-sonnet-*': 'sigma-sonnet-4-6',
  // The assistant's small, fast background model; we have no smaller sigma model.
  'claude-haiku-*': 'sigma-sonnet-4-6',
  'claude-3-*': 'sigma-sonnet-4-6',
};

/** `claude-sonnet-*` → matches `claude-sonnet-4-5-20250929`. */
export function isPrefixAlias(alias: string): boolean {
  return alias.endsWith('*');
}
