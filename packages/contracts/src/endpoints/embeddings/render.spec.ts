import { embeddingsInPieces, encodeEmbedding, type EmbeddingRequest, type EmbeddingResponse } from './endpoint';

const render = (answer: EmbeddingResponse, req: EmbeddingRequest) => [...embeddingsInPieces.render(answer, req)];

const vector = (seed: number, dims: number) => Array.from({ length: dims }, (_, i) => Math.fround(Math.sin(seed + i)));

function answer(count: number, dims: number, asBase64: boolean): EmbeddingResponse {
  return {
    object: 'list',
    model: 'zeta-4-large',
    data: Array.from({ length: count }, (_, index) => ({
      object: 'embedding' as const,
      index,
      embedding: asBase64 ? (encodeEmbedding(vector(index, dims), 'base64') as string) : vector(index, dims),
    })),
    usage: { prompt_tokens: count, total_tokens: count },
  };
}

const asked = (encoding_format?: EmbeddingRequest['encoding_format']): EmbeddingRequest => ({
  model: 'zeta-4-large',
  input: 'x',
  encoding_format,
});

describe('embeddingsInPieces', () => {
  it.each([
    ['base64 vectors from the upstream', true],
    ['float vectors from the upstream', false],
  ])('prints %s as floats, in pieces of about 256 KiB, that join into the answer', (_case, asBase64) => {
    const pieces = render(answer(200, 2048, asBase64), asked('float'));
    // 200 vectors of 2,048 floats are ~8 MB of JSON: dozens of pieces, none much over the size.
    expect(pieces.length).toBeGreaterThan(20);
    for (const piece of pieces) expect(piece.length).toBeLessThan(256 * 1024 + 64 * 1024);
    const { object, model, usage, data } = answer(200, 2048, false);
    expect(pieces.join('')).toBe(JSON.stringify({ object, model, usage, data }));
  });

  it('prints floats when no format is asked (the API default) or floats are; leaves an answer in base64 to be printed whole', () => {
    expect([asked(), asked('float'), asked('base64')].map(embeddingsInPieces.when)).toEqual([true, true, false]);
    expect(JSON.parse(render(answer(2, 4, true), asked()).join(''))).toEqual(answer(2, 4, false));
  });

  it('a small answer is one piece', () => {
    expect(render(answer(3, 256, true), asked('float'))).toHaveLength(1);
  });
});

describe('encodeEmbedding', () => {
  it('encodes floats as little-endian float32 base64 when asked, and leaves base64 as the upstream sent it', () => {
    const b64 = encodeEmbedding([1, -0.5], 'base64') as string;
    const bytes = Buffer.from(b64, 'base64');
    expect([bytes.readFloatLE(0), bytes.readFloatLE(4)]).toEqual([1, -0.5]);
    expect(encodeEmbedding(b64, 'float')).toBe(b64);
    expect(encodeEmbedding([1, 2], 'float')).toEqual([1, 2]);
  });
});
