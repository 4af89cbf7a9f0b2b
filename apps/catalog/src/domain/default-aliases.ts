/**
 * Names clients send without being asked. SPEC.md §4: a command-line coding assistant is pointed at
 * /v1/messages with only a base URL and a key, so it asks for its vendor's own model names, which
 * change with every release (`claude-opus-5-5`, `claude-sonnet-4-5-20250929`, `claude-haiku-4-5`).
 * They are matched by pattern, not listed: a trailing `*` matches by prefix (the longest prefix
 * wins), so new versions — and a family we have not seen yet (`claude-*`) — keep working.
 * UNIGATE_CONFIG `aliases` adds to these and overrides them key by key (docs/coding-agents.md).
 */
export const DEFAULT_ALIASES: Readonly<Record<string, string>> = {
  'claude-opus-*': 'sigma-opus-4-7',
  'claude-sonnet-*': 'sigma-sonnet-4-6',
  // The assistant's small, fast background model; we have no smaller sigma model.
  'claude-haiku-*': 'sigma-sonnet-4-6',
  'claude-3-*': 'sigma-sonnet-4-6',
  // Any other family name the assistant may ask for in a future version.
  'claude-*': 'sigma-sonnet-4-6',
};
