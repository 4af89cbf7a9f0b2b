import { randomBytes } from 'node:crypto';
import { BLOB_MIN_CHARS, encodeWithBlobs, restoreBlobs } from './wire-blobs';

const b64 = (bytes: number) => randomBytes(bytes).toString('base64');

test('long canonical base64 strings travel as bytes, anywhere in the document, and come back exactly', () => {
  const image = b64(BLOB_MIN_CHARS); // longer than the threshold once encoded
  const value = { data: [{ b64_json: image }, { b64_json: 'short' }], nested: { deep: [[image]] }, n: 1, nil: null };
  const before = JSON.stringify(value);
  const { json, blobs } = encodeWithBlobs(value);

  expect(JSON.stringify(value)).toBe(before); // the value is left as it was
  expect(blobs.map((b) => b.path)).toEqual([
    ['data', '0', 'b64_json'],
    ['nested', 'deep', '0', '0'],
  ]);
  expect(Buffer.from(blobs[0].data)).toEqual(Buffer.from(image, 'base64'));
  expect(json.length).toBeLessThan(200);

  const parsed = JSON.parse(json.toString());
  restoreBlobs(parsed, blobs);
  expect(parsed).toEqual(value);
});

test('text that is not canonical base64 stays in the JSON', () => {
  const prose = 'word '.repeat(BLOB_MIN_CHARS);
  const letters = 'A'.repeat(BLOB_MIN_CHARS + 1); // not a multiple of 4
  // 'QR==' decodes like 'QQ==' (its unused bits are not zero), so it would not come back as sent.
  const noncanonical = 'A'.repeat(BLOB_MIN_CHARS) + 'QR==';
  // Node decodes both of these, but they would come back as other strings.
  const urlSafe = '-_-_'.repeat(BLOB_MIN_CHARS / 4);
  const wrapped = b64(BLOB_MIN_CHARS).replace(/(.{76})/g, '$1\n');
  for (const text of [prose, letters, noncanonical, urlSafe, wrapped.slice(0, wrapped.length - (wrapped.length % 4))])
    expect(encodeWithBlobs({ text }).blobs).toEqual([]);
  expect(encodeWithBlobs({ text: 'A'.repeat(BLOB_MIN_CHARS) + 'QQ==' }).blobs).toHaveLength(1);
});

test('bytes for a place the JSON does not have are refused, not guessed', () => {
  expect(() => restoreBlobs({ a: 1 }, [{ path: ['b', 'c'], data: new Uint8Array([1]) }])).toThrow("bytes for 'b'");
  expect(() => restoreBlobs({ a: 1 }, [{ path: ['a'], data: new Uint8Array([1]) }])).toThrow("bytes for 'a'");
  expect(() => restoreBlobs({ a: { __proto__: 'x' } }, [{ path: ['toString', 'x'], data: new Uint8Array([1]) }])).toThrow();
});

test('a value whose JSON is shorter than a blob is its JSON, unwalked; a string of exactly the threshold is still lifted', () => {
  const chunk = { id: 'c1', choices: [{ index: 0, delta: { content: 'hi' } }], text: b64(48) };
  expect(encodeWithBlobs(chunk)).toEqual({ json: Buffer.from(JSON.stringify(chunk)), blobs: [] });
  const exact = 'A'.repeat(BLOB_MIN_CHARS - 4) + 'QQ==';
  expect(exact).toHaveLength(BLOB_MIN_CHARS);
  expect(encodeWithBlobs({ exact }).blobs).toHaveLength(1);
  const long = { text: 'word '.repeat(BLOB_MIN_CHARS) };
  expect(encodeWithBlobs(long)).toEqual({ json: Buffer.from(JSON.stringify(long)), blobs: [] });
});
