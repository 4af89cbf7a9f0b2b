import { createHash } from 'node:crypto';
import { displayPrefix, generateApiKey, hashApiKey } from './api-key-material';

test('keys are sk- + 48 base62 characters and do not repeat', () => {
  const keys = new Set(Array.from({ length: 200 }, generateApiKey));
  expect(keys.size).toBe(200);
  for (const k of keys) expect(k).toMatch(/^sk-[0-9A-Za-z]{48}$/);
});

test('the stored form is the SHA-256 hex of the whole key; the prefix reveals 4 random characters', () => {
  const key = generateApiKey();
  expect(hashApiKey(key)).toBe(createHash('sha256').update(key).digest('hex'));
  expect(displayPrefix(key)).toBe(`${key.slice(0, 7)}…`);
});
