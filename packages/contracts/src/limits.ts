/**
 * Documented caps on request shape (docs/reliability.md). Every check against them is linear in the
 * input, and exceeding one is a 400 naming the cap, never a stack overflow or a frozen event loop.
 */

/** Most messages (or input items) one chat, messages or responses request may carry. */
export const MAX_MESSAGES = 10_000;

/**
 * Most candidates (`n`) one chat completion may ask for: OpenAI's documented maximum. Each multiplies
 * the call's worst case (its hold) and the answer an upstream builds.
 */
export const MAX_CANDIDATES = 128;

/** Deepest nesting of arrays and objects a JSON body may have. */
export const MAX_JSON_DEPTH = 128;

/**
 * Whether `text`, a JSON document, nests deeper than `max` — one pass over the characters, strings
 * skipped, before JSON.parse builds anything (a 5,000-deep value made JSON.stringify overflow later).
 * Most of a chat body is string content, so a string is skipped by searching for its closing quote
 * (native indexOf) instead of stepping through it.
 */
export function jsonDepthExceeds(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // The closing quote is the next one after an even run of backslashes (an odd run escapes it).
      for (;;) {
        const quote = text.indexOf('"', i + 1);
        if (quote < 0) return false; // unterminated: JSON.parse refuses it
        let before = quote - 1;
        while (text.charCodeAt(before) === 0x5c) before--;
        i = quote;
        if ((quote - 1 - before) % 2 === 0) break;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}
