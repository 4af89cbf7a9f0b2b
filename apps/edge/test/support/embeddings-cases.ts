/**
 * POST /v1/embeddings (SPEC.md §2.7) with the official `openai` client — whose default asks for
 * base64 — over the three upstream formats (OpenAI-compatible, Voyage, DashScope native), and every
 * rule with the bad input, its status and its Shape B body.
 */
import OpenAI from 'openai';
import { Admin } from './admin';
import { chargeOf, expectNothingCharged } from './media-billing';
import type { SimControl } from './sim-control';
import type { Stack } from './stacks';
import { json, openaiFor } from './use-stack';

const TEXTS = ['the harbour at dawn', 'a lighthouse keeper', 'ships in a storm'];
const norm = (v: number[]) => Math.hypot(...v);

export function embeddingsCases(ctx: () => { stack: Stack; client: OpenAI; admin: Admin; sim: SimControl }) {
  const post = (body: unknown, key = ctx().stack.apiKey) =>
    fetch(`${ctx().stack.baseURL}/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  describe('POST /v1/embeddings', () => {
    it('embeds a batch with the SDK default (base64 float32): unit vectors of the default dimension, in input order', async () => {
      const { client, sim } = ctx();
      const { data, response } = await client.embeddings.create({ model: 'zeta-4', input: TEXTS }).withResponse();
      expect(response.headers.get('content-type')).toMatch(/application\/json/);
      expect(data.object).toBe('list');
      expect(data.model).toBe('zeta-4');
      expect(data.data.map((d) => d.index)).toEqual([0, 1, 2]);
      for (const d of data.data) {
        expect(d.embedding).toHaveLength(1024);
        expect(norm(d.embedding)).toBeCloseTo(1, 5);
      }
      expect(data.usage.prompt_tokens).toBeGreaterThan(0);
      expect(data.usage.total_tokens).toBe(data.usage.prompt_tokens);
      // Voyage's format upstream: `output_dimension`, and base64 asked for whatever the client wanted.
      const sent = await sim.lastTo('/v1/embeddings');
      expect(sent!.body).toEqual({ model: 'zeta-4', input: TEXTS, output_dimension: 1024, encoding_format: 'base64' });

      // The same texts as floats: the very same numbers (float32 round trip), and one text alone the same vector.
      const floats = await client.embeddings.create({ model: 'zeta-4', input: TEXTS, encoding_format: 'float' });
      expect(floats.data.map((d) => d.embedding)).toEqual(data.data.map((d) => d.embedding));
      const single = await client.embeddings.create({ model: 'zeta-4', input: TEXTS[2], encoding_format: 'float' });
      expect(single.data).toEqual([{ object: 'embedding', index: 0, embedding: data.data[2].embedding }]);
    });

    it('answers raw base64 as little-endian float32 when asked', async () => {
      const res = await post({ model: 'zeta-4-lite', input: 'tide tables', encoding_format: 'base64', dimensions: 256 });
      expect(res.status).toBe(200);
      const body = await json(res);
      const bytes = Buffer.from(body.data[0].embedding, 'base64');
      expect(bytes.length).toBe(256 * 4);
      const floats = Array.from({ length: 256 }, (_, i) => bytes.readFloatLE(i * 4));
      const asFloat = await json(await post({ model: 'zeta-4-lite', input: 'tide tables', dimensions: 256 }));
      expect(floats).toEqual(asFloat.data[0].embedding);
    });

    it('takes the dimensions each family lists: text-embedding-v4 over DashScope, gamma over the OpenAI format', async () => {
      const { client, sim } = ctx();
      const v4 = await client.embeddings.create({ model: 'text-embedding-v4', input: ['a', 'b'], dimensions: 64 });
      expect(v4.data.map((d) => d.embedding.length)).toEqual([64, 64]);
      const sent = await sim.lastTo('/api/v1/services/embeddings');
      expect(sent!.body).toEqual({ model: 'text-embedding-v4', input: { texts: ['a', 'b'] }, parameters: { dimension: 64 } });

      const gamma = await client.embeddings.create({ model: 'text-embedding-004', input: 'kelp forest' });
      expect(gamma.data[0].embedding).toHaveLength(768);
      expect((await sim.lastTo('/v1/embeddings'))!.body).toEqual({
        model: 'text-embedding-004',
        input: ['kelp forest'],
        encoding_format: 'float',
        dimensions: 768,
      });
      for (const dimensions of [256, 512, 2048])
        expect((await client.embeddings.create({ model: 'zeta-4-large', input: 'x', dimensions })).data[0].embedding).toHaveLength(
          dimensions,
        );
    });

    it.each([
      ['a dimension the family does not list', { model: 'zeta-4', input: 'x', dimensions: 300 }, 'dimensions', 'invalid_value'],
      [
        'a text-embedding-v4 dimension outside its list',
        { model: 'text-embedding-v4', input: 'x', dimensions: 1000 },
        'dimensions',
        'invalid_value',
      ],
      ['an unknown encoding_format', { model: 'zeta-4', input: 'x', encoding_format: 'int8' }, 'encoding_format', 'invalid_value'],
      ['an empty batch', { model: 'zeta-4', input: [] }, 'input', 'invalid_value'],
      ['an empty string', { model: 'zeta-4', input: ['ok', ''] }, 'input[1]', 'invalid_value'],
      ['no input', { model: 'zeta-4' }, 'input', 'invalid_value'],
      ['a number as input', { model: 'zeta-4', input: 42 }, 'input', 'invalid_value'],
      [
        'more inputs than the model takes',
        { model: 'text-embedding-v4', input: Array.from({ length: 11 }, (_, i) => `t${i}`) },
        'input',
        'invalid_value',
      ],
      ['a chat model', { model: 'gamma-2.5-flash', input: 'x' }, 'model', 'model_not_supported'],
    ])('answers %s with 400 in Shape B', async (_label, body, param, code) => {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(await json(res)).toEqual({ error: { message: expect.any(String), type: 'invalid_request_error', code, param } });
    });

    it('answers an unknown model with 404 model_not_found', async () => {
      const res = await post({ model: 'zeta-99', input: 'x' });
      expect(res.status).toBe(404);
      expect((await json(res)).error).toMatchObject({ code: 'model_not_found', type: 'invalid_request_error' });
    });

    it('charges the input tokens in the ledger, and nothing when the upstream fails', async () => {
      const { stack, admin, sim } = ctx();
      const { accountId, key } = await admin.fundedKey(1);
      const res = await post({ model: 'zeta-4', input: TEXTS }, key);
      expect(res.status).toBe(200);
      const tokens = (await json(res)).usage.prompt_tokens;
      const entry = await chargeOf(admin, accountId, res.headers.get('x-request-id')!);
      expect(entry).toMatchObject({ model: 'zeta-4', input_tokens: tokens, output_tokens: 0 });
      expect(entry.units).toMatchObject({ input_tokens: tokens });
      // zeta-4: $0.06 per million input tokens (docs/pricing.md), rounded up to the micro-dollar.
      expect(entry.cost_micros).toBe(Math.ceil((tokens * 60_000) / 1e6));

      const failing = await admin.fundedKey(1);
      await sim.fault({ match: { model: 'zeta-4-lite', path: '/v1/embeddings' }, status: 500, count: 1 });
      const failed = await openaiFor(stack, failing.key)
        .embeddings.create({ model: 'zeta-4-lite', input: 'x' })
        .catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(OpenAI.APIError);
      expect((failed as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
      await expectNothingCharged(admin, failing, 1);
    });
  });
}
