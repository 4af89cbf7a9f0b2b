/**
 * The alpha image family on POST /v1/images/generations (SPEC.md §2.3), raw HTTP: DashScope's request
 * format, results kept by the gateway and served as its own signed links valid 24 hours (403 once
 * altered or expired), every rule with its Shape A InvalidParameter, per-image billing.
 */
import { createHmac } from 'node:crypto';
import { sniffImage } from '@unigate/contracts';
import type { Admin } from './admin';
import { chargeOf, expectNothingCharged } from './media-billing';
import type { SimControl } from './sim-control';
import type { Stack } from './stacks';
import { json } from './use-stack';

/** The link secret the test deployments are started with (media-suite.ts), to forge an expired link. */
export const TEST_LINK_SECRET = 'e2e-link-secret-0123456789abcdef';

const message = (...content: object[]) => ({ messages: [{ role: 'user', content }] });
const text = { text: 'a lighthouse in the fog' };
const ref = (n: number) => ({ image: `https://images.example.com/ref-${n}.png` });

export function alphaImagesCases(ctx: () => { stack: Stack; admin: Admin; sim: SimControl }) {
  const generate = (body: unknown, key = ctx().stack.apiKey) =>
    fetch(`${ctx().stack.baseURL}/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const expectInvalidParameter = async (res: Response) => {
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ code: 'InvalidParameter', message: expect.any(String), request_id: expect.stringMatching(/^req_/) });
  };

  describe('POST /v1/images/generations (alpha)', () => {
    it('generates, keeps the result and answers a signed gateway link valid 24 h that serves the image; charged per image', async () => {
      const { stack, admin, sim } = ctx();
      const { accountId, key } = await admin.fundedKey(1);
      const res = await generate(
        { model: 'alpha-image-2.0', input: message(text), parameters: { size: '1280*720', seed: 42, watermark: false } },
        key,
      );
      expect(res.status).toBe(200);
      const body = await json(res);
      expect(body).toMatchObject({
        request_id: res.headers.get('x-request-id'),
        output: { choices: [{ finish_reason: 'stop', message: { role: 'assistant', content: [{ image: expect.any(String) }] } }] },
        usage: { image_count: 1, width: 1280, height: 720 },
      });
      const link = new URL(body.output.choices[0].message.content[0].image);
      expect(link.origin).toBe(stack.origin);
      const expires = Number(link.searchParams.get('expires')) * 1000;
      expect(Math.abs(expires - (Date.now() + 24 * 3600 * 1000))).toBeLessThan(120_000);
      const image = await fetch(link);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
      const whole = Buffer.from(await image.arrayBuffer());
      expect(sniffImage(whole)).toMatchObject({ format: 'png', width: 1280, height: 720 });
      // A range of it (a video player seeking, a resumed download): 206 with those bytes; past its end, 416.
      expect(image.headers.get('accept-ranges')).toBe('bytes');
      const part = await fetch(link, { headers: { range: 'bytes=8-23' } });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 8-23/${whole.length}`);
      expect(Buffer.from(await part.arrayBuffer())).toEqual(whole.subarray(8, 24));
      const beyond = await fetch(link, { headers: { range: `bytes=${whole.length}-` } });
      expect(beyond.status).toBe(416);
      expect(beyond.headers.get('content-range')).toBe(`bytes */${whole.length}`);
      // Passed on to the upstream as sent, the model being the channel's.
      expect((await sim.lastTo('/api/v1/services/aigc/multimodal-generation'))!.body.parameters).toEqual({
        size: '1280*720',
        seed: 42,
        watermark: false,
      });

      const entry = await chargeOf(admin, accountId, res.headers.get('x-request-id')!);
      expect(entry.units).toMatchObject({ images: 1 });
      expect(entry.cost_micros).toBe(30_000); // alpha-image-2.0: $0.03 per image (docs/pricing.md)

      // Altered: 403. Expired (a link signed for the past with the deployment's secret): 403.
      link.searchParams.set('signature', 'x'.repeat(43));
      const altered = await fetch(link);
      expect(altered.status).toBe(403);
      expect(await json(altered)).toMatchObject({ code: 'AccessDenied', request_id: expect.any(String) });
      const fileKey = link.pathname.split('/').pop()!;
      const past = Math.floor(Date.now() / 1000) - 1;
      const sig = createHmac('sha256', TEST_LINK_SECRET).update(`${fileKey}\n${past}`).digest('base64url');
      const expired = await fetch(`${stack.origin}/v1/files/${fileKey}?expires=${past}&signature=${sig}`);
      expect(expired.status).toBe(403);
      expect((await json(expired)).message).toMatch(/expired/);
    });

    it('edits with 1 to 3 public https reference images', async () => {
      const res = await generate({ model: 'alpha-image-edit', input: message(ref(1), ref(2), { text: 'make it night' }) });
      expect(res.status).toBe(200);
      const sent = await ctx().sim.lastTo('/api/v1/services/aigc/multimodal-generation');
      expect(sent!.body.input.messages[0].content).toEqual([ref(1), ref(2), { text: 'make it night' }]);
    });

    it.each([
      ['an unrecognised alpha model', { model: 'alpha-image-9', input: message(text) }],
      ['two messages', { model: 'alpha-image-2.0', input: { messages: [message(text).messages[0], message(text).messages[0]] } }],
      ['a role other than user', { model: 'alpha-image-2.0', input: { messages: [{ role: 'system', content: [text] }] } }],
      ['no text block', { model: 'alpha-image-edit', input: message(ref(1)) }],
      ['an editing model without reference images', { model: 'alpha-image-edit', input: message(text) }],
      ['four reference images', { model: 'alpha-image-edit-plus', input: message(text, ref(1), ref(2), ref(3), ref(4)) }],
      ['a reference image on a text-to-image model', { model: 'alpha-image-2.0', input: message(text, ref(1)) }],
      ['a block with text and image', { model: 'alpha-image-edit', input: message({ ...text, ...ref(1) }) }],
      ['an http reference URL', { model: 'alpha-image-edit', input: message(text, { image: 'http://images.example.com/a.png' }) }],
      ['a private address as reference', { model: 'alpha-image-edit', input: message(text, { image: 'https://169.254.169.254/latest' }) }],
      ['a localhost reference', { model: 'alpha-image-edit', input: message(text, { image: 'https://localhost/a.png' }) }],
      [
        'a localhost reference with the root dot',
        { model: 'alpha-image-edit', input: message(text, { image: 'https://LOCALHOST./a.png' }) },
      ],
      [
        'an .internal reference with the root dot',
        { model: 'alpha-image-edit', input: message(text, { image: 'https://foo.internal./x' }) },
      ],
      ['an unsupported size', { model: 'alpha-image-2.0', input: message(text), parameters: { size: '1024x1024' } }],
      ['n = 2', { model: 'alpha-image-max', input: message(text), parameters: { n: 2 } }],
      ['no input', { model: 'alpha-image-2.0' }],
    ])('answers %s with 400 InvalidParameter in Shape A', async (_l, body) => {
      await expectInvalidParameter(await generate(body));
    });

    it.each([
      ['parameters.seed', { parameters: { seed: 1.5 } }],
      ['parameters.n', { parameters: { n: '1' } }],
      ['parameters.watermark', { parameters: { watermark: 'yes' } }],
      ['parameters.size', { parameters: { size: 1024 } }],
      ['input.messages[0].content', { input: { messages: [{ role: 'user', content: 'a cat' }] } }],
      ['input.messages[0].content[0].text', { input: message({ text: 5 }) }],
    ])('answers a wrong type of %s with 400 InvalidParameter saying what it got, not that it is missing', async (param, extra) => {
      const res = await generate({ model: 'alpha-image-2.0', input: message(text), ...extra });
      expect(res.status).toBe(400);
      const body = await json(res);
      expect(body).toMatchObject({ code: 'InvalidParameter', request_id: expect.any(String) });
      expect(body.message).toContain(`Invalid '${param}': `);
      expect(body.message).toMatch(/expected \w+/);
      expect(body.message).not.toMatch(/is required/);
    });

    it('answers a key restricted to other models with 403 model_not_allowed in Shape A, like every alpha error', async () => {
      const { key } = await ctx().admin.fundedKey(1, { models: ['alpha-image-max'] });
      const res = await generate({ model: 'alpha-image-2.0', input: message(text) }, key);
      expect(res.status).toBe(403);
      expect(await json(res)).toEqual({
        code: 'model_not_allowed',
        message: expect.any(String),
        request_id: expect.stringMatching(/^req_/),
      });
    });

    it('charges nothing when the upstream fails', async () => {
      const { admin, sim } = ctx();
      const failing = await admin.fundedKey(1);
      await sim.fault({ match: { model: 'alpha-image-max' }, status: 500, count: 1 });
      const res = await generate({ model: 'alpha-image-max', input: message(text) }, failing.key);
      expect(res.status).toBe(502);
      expect(await json(res)).toMatchObject({ code: 'upstream_error', request_id: expect.any(String) });
      await expectNothingCharged(admin, failing, 1);
    });
  });
}
