/**
 * What client text may hold where it is stored or used as an address. Postgres text cannot hold NUL,
 * and control characters are no part of an email address or a URL someone will be sent to.
 */

/**
 * Whether Postgres text can hold `s`: it cannot hold NUL. A lookup by a value it cannot hold finds
 * nothing, and is answered so without a query (which would fail with an encoding error).
 */
export function textCanHold(s: string): boolean {
  return !s.includes('\u0000');
}

/** Whether `s` holds a C0 control character or DEL (NUL among them). */
export function hasControlCharacters(s: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are what is looked for
  return /[\u0000-\u001f\u007f]/.test(s);
}

/**
 * The characters of `s` as people (and vendors) count them: code points, not UTF-16 units (an emoji
 * is one character, where `s.length` counts two).
 */
export function characterCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/**
 * Whether `s` holds a bidirectional control (U+202A-U+202E, U+2066-U+2069): shown in a list, one
 * reorders what follows it (`evil\u202Etxt.exe` reads "evilexe.txt"). No name needs one.
 */
export function hasBidiControls(s: string): boolean {
  return /[\u202a-\u202e\u2066-\u2069]/.test(s);
}
