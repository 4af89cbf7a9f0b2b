/**
 * The gamma image family on POST /v1/images/generations (SPEC.md §2.5), raw HTTP: snake_case
 * Interactions requests, per-model sizes and ratios, multi-turn edits through `previous_interaction_id`
 * limited to the caller's own stored interactions, search tools stripped, per-size billing.
 */
import { sniffImage } from '@unigate/contracts';
import type { Admin } from './admin';
import { chargeOf, expectNothingCharged } from './media-billing';
import { png } from './png';
import type { SimControl } from './sim-control';
import type { Stack } from './stacks';
import { json } from './use-stack';

const FLASH = 'gamma-3.1-flash-image-preview';
const imageOut = (body: { outputs: Array<{ type: string; data?: string }> }) =>
  sniffImage(Buffer.from(body.outputs.find((o) => o.type === 'image')!.data!, 'base64'));
const refImage = { type: 'image', mime_type: 'image/png', data: png(16, 16).toString('base64') };

export function gammaImagesCases(ctx: () => { stack: Stack; admin: Admin; sim: SimControl }) {
  const generate = (body: unknown, key = ctx().stack.apiKey) =>
    fetch(`${ctx().stack.baseURL}/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  describe('POST /v1/images/generations (gamma)', () => {
    it('generates at the asked size and ratio over Interactions, search tools stripped, charged by size', async () => {
      const { admin, sim } = ctx();
      const { accountId, key } = await admin.fundedKey(1);
      const res = await generate(
        {
          model: FLASH,
          input: 'a harbour at dawn',
          system_instruction: 'Photorealistic.',
          response_format: { type: 'image', image_size: '512px', aspect_ratio: '16:9' },
          generation_config: { thinking_level: 'high', temperature: 0.7 },
          // However a search tool is written, it never reaches the upstream.
          tools: [{ type: 'google_search' }, { google_search: {} }, { googleSearch: {} }, { google_search_retrieval: {} }],
        },
        key,
      );
      expect(res.status).toBe(200);
      const body = await json(res);
      expect(body.id).toMatch(/^v1_/);
      expect(imageOut(body)).toMatchObject({ format: 'png', width: 512, height: 288 });
      expect((await sim.lastTo('/v1beta/interactions'))!.body).toEqual({
        model: FLASH,
        input: 'a harbour at dawn',
        system_instruction: 'Photorealistic.',
        response_modalities: ['IMAGE'],
        generation_config: { thinking_level: 'high', temperature: 0.7, image_config: { aspect_ratio: '16:9', image_size: '512px' } },
      });
      const entry = await chargeOf(admin, accountId, res.headers.get('x-request-id')!);
      expect(entry.units).toMatchObject({ images: 1, image_size: '512px', input_tokens: body.usage.total_input_tokens });
      // gamma-3.1-flash-image-preview: $0.50 per million input tokens, $0.045 per 512px image (docs/pricing.md).
      expect(entry.cost_micros).toBe(Math.ceil((body.usage.total_input_tokens * 500_000) / 1e6) + 45_000);
    });

    it("continues the caller's own stored interaction; another account's, or one made with store: false, is 404", async () => {
      const { admin, sim } = ctx();
      const first = await json(await generate({ model: FLASH, input: [{ type: 'text', text: 'a boat' }, refImage] }));
      expect(first.id).toMatch(/^v1_/);
      const second = await generate({ model: FLASH, input: 'now at night', previous_interaction_id: first.id });
      expect(second.status).toBe(200);
      expect((await sim.lastTo('/v1beta/interactions'))!.body.previous_interaction_id).toBe(first.id);

      const other = await admin.fundedKey(1);
      const stolen = await generate({ model: FLASH, input: 'mine now', previous_interaction_id: first.id }, other.key);
      expect(stolen.status).toBe(404);
      expect((await json(stolen)).error).toMatchObject({ code: 'interaction_not_found', param: 'previous_interaction_id' });

      const unstored = await json(await generate({ model: 'gamma-2.5-flash-image', input: 'ephemeral', store: false }));
      const gone = await generate({ model: 'gamma-2.5-flash-image', input: 'again', previous_interaction_id: unstored.id });
      expect(gone.status).toBe(404);
    });

    it('holds a continuation for the model’s whole input window: the stored turns it reads cannot outrun the balance', async () => {
      const { admin } = ctx();
      // $0.15 less one 1K image ($0.067 and its input) leaves ~$0.083: another new image fits, but not a
      // continuation's 65,536 tokens at $0.50 per million ($0.033) on top of its image.
      const { key } = await admin.fundedKey(0.15);
      const first = await generate({ model: FLASH, input: 'a boat' }, key);
      expect(first.status).toBe(200);
      const refused = await generate({ model: FLASH, input: 'now at night', previous_interaction_id: (await json(first)).id }, key);
      expect(refused.status).toBe(402);
      expect((await generate({ model: FLASH, input: 'a lighthouse' }, key)).status).toBe(200);
    });

    it.each([
      [
        '512 without its px suffix',
        { model: FLASH, response_format: { type: 'image', image_size: '512' } },
        'response_format.image_size',
        'invalid_value',
      ],
      [
        '512px on the pro model',
        { model: 'gamma-3-pro-image-preview', response_format: { type: 'image', image_size: '512px' } },
        'response_format.image_size',
        'invalid_value',
      ],
      [
        '2K on gamma-2.5-flash-image',
        { model: 'gamma-2.5-flash-image', response_format: { type: 'image', image_size: '2K' } },
        'response_format.image_size',
        'invalid_value',
      ],
      [
        'an extra ratio off the 3.1 flash model',
        { model: 'gamma-3-pro-image-preview', response_format: { type: 'image', aspect_ratio: '1:4' } },
        'response_format.aspect_ratio',
        'invalid_value',
      ],
      ['a response_format other than image', { model: FLASH, response_format: { type: 'text' } }, 'response_format.type', 'invalid_value'],
      [
        'thinking_level on gamma-2.5',
        { model: 'gamma-2.5-flash-image', generation_config: { thinking_level: 'high' } },
        'generation_config.thinking_level',
        'unsupported_parameter',
      ],
      [
        'an unknown thinking_level',
        { model: FLASH, generation_config: { thinking_level: 'medium' } },
        'generation_config.thinking_level',
        'invalid_value',
      ],
      ['temperature over 2', { model: FLASH, generation_config: { temperature: 2.5 } }, 'generation_config.temperature', 'invalid_value'],
      [
        'base64 with a data: prefix',
        {
          model: FLASH,
          input: [
            { type: 'text', text: 'x' },
            { ...refImage, data: `data:image/png;base64,${refImage.data}` },
          ],
        },
        'input[1].data',
        'invalid_value',
      ],
      [
        '15 reference images on 3.1 flash',
        { model: FLASH, input: [{ type: 'text', text: 'x' }, ...Array(15).fill(refImage)] },
        'input',
        'invalid_value',
      ],
      [
        '4 reference images on gamma-2.5',
        { model: 'gamma-2.5-flash-image', input: [{ type: 'text', text: 'x' }, ...Array(4).fill(refImage)] },
        'input',
        'invalid_value',
      ],
      [
        'a previous_interaction_id not of form v1_',
        { model: FLASH, previous_interaction_id: 'abc' },
        'previous_interaction_id',
        'invalid_value',
      ],
      ['no input', { model: FLASH, input: undefined }, 'input', 'invalid_value'],
    ])('answers %s with 400 in Shape B', async (_l, patch, param, code) => {
      const res = await generate({ input: 'a lighthouse', ...patch });
      expect(res.status).toBe(400);
      expect(await json(res)).toEqual({ error: { message: expect.any(String), type: 'invalid_request_error', code, param } });
    });

    it('charges nothing when the upstream fails', async () => {
      const { admin, sim } = ctx();
      const failing = await admin.fundedKey(1);
      await sim.fault({ match: { path: '/v1beta/interactions' }, status: 503, count: 1 });
      const res = await generate({ model: FLASH, input: 'x' }, failing.key);
      expect(res.status).toBe(503);
      await expectNothingCharged(admin, failing, 1);
    });
  });
}
