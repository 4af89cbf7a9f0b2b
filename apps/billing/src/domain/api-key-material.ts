/** API key secrets: generated here, shown once, stored only as SHA-256. */
import { randomInt } from 'node:crypto';

export { hashApiKey } from '@unigate/contracts';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const KEY_RANDOM_CHARS = 48;

/** `sk-` + 48 uniformly random base62 characters (≈ 286 bits). */
export function generateApiKey(): string {
  let out = 'sk-';
  for (let i = 0; i < KEY_RANDOM_CHARS; i++) out += BASE62[randomInt(BASE62.length)];
  return out;
}

/** Enough to recognise a key in a list (`sk-AbCd…`), far too little to use it. */
export function displayPrefix(key: string): string {
  return `${key.slice(0, 7)}…`;
}
