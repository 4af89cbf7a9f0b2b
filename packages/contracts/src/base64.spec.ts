import { randomBytes } from 'node:crypto';
import { canonicalBase64, isFloat32Base64 } from './base64';

test('canonical base64 gives its bytes', () => {
  const bytes = randomBytes(3 * 1024 + 2);
  expect(canonicalBase64(bytes.toString('base64'))).toEqual(bytes);
  expect(canonicalBase64('')).toEqual(Buffer.alloc(0));
  expect(canonicalBase64('QQ==')).toEqual(Buffer.from('A'));
});

test.each([
  ['a length that is not a multiple of 4', 'QUJD' + 'QQ'],
  ['whitespace', 'QUJD\nQUJD'],
  ['a line break at the end', 'QUJDQUJD\n\n\n\n'],
  ['the URL-safe alphabet', '-_-_'],
  ['padding in the middle', 'QQ==QUJD'],
  ['set bits after the last byte', 'QR=='],
  ['characters outside the alphabet', 'QUJ*'],
  ['a missing padding character', 'QUJDQQ=A'],
])('%s is not canonical base64', (_, s) => {
  expect(canonicalBase64(s)).toBeUndefined();
  expect(isFloat32Base64(s)).toBe(false);
});

test('float32 base64 holds whole 4-byte values', () => {
  const floats = Buffer.alloc(12);
  floats.writeFloatLE(0.5, 0);
  expect(isFloat32Base64(floats.toString('base64'))).toBe(true);
  expect(isFloat32Base64(Buffer.alloc(6).toString('base64'))).toBe(false);
});
