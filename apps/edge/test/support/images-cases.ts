/**
 * POST /v1/images/generations (delta family: OpenAI images with freeform sizes, SPEC.md §8) and
 * POST /v1/images/edits (multipart, SPEC.md §2.4) with the official `openai` client: real images at
 * the asked size and format, files judged by their bytes, mask rules, limits, billing.
 */
import { request as httpRequest } from 'node:http';
import { sniffImage } from '@unigate/contracts';
import OpenAI, { toFile } from 'openai';
import { Admin } from './admin';
import { chargeOf, expectNothingCharged } from './media-billing';
import { png } from './png';
import type { SimControl } from './sim-control';
import type { Stack } from './stacks';
import { json, openaiFor } from './use-stack';

const pngFile = (bytes: Buffer, name = 'in.png') => toFile(bytes, name, { type: 'image/png' });
const imageOf = (b64: string) => sniffImage(Buffer.from(b64, 'base64'));

export function imagesCases(ctx: () => { stack: Stack; client: OpenAI; admin: Admin; sim: SimControl }) {
  const generate = (body: unknown, key = ctx().stack.apiKey) =>
    fetch(`${ctx().stack.baseURL}/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  /** A raw multipart edit: fields, and files as [field, bytes, filename, declared type]. */
  const edit = (fields: Record<string, string>, files: Array<[string, Buffer, string?, string?]>) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    for (const [field, bytes, name, type] of files) form.append(field, new Blob([bytes], { type: type ?? 'image/png' }), name ?? 'f.png');
    return fetch(`${ctx().stack.baseURL}/images/edits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ctx().stack.apiKey}` },
      body: form,
    });
  };
  const expect400 = async (res: Response, param: string, code: string) => {
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ error: { message: expect.any(String), type: 'invalid_request_error', code, param } });
  };

  describe('POST /v1/images/generations (delta)', () => {
    it('generates a real image at a fixed size with the SDK, usage in tokens', async () => {
      const { client, sim } = ctx();
      const r = await client.images.generate({ model: 'delta-image-2', prompt: 'a red lighthouse', size: '1024x1536', quality: 'low' });
      expect(imageOf(r.data![0].b64_json!)).toMatchObject({ format: 'png', width: 1024, height: 1536 });
      expect(r.usage).toMatchObject({ input_tokens: expect.any(Number), output_tokens: expect.any(Number) });
      expect((await sim.lastTo('/v1/images/generations'))!.body).toMatchObject({
        model: 'delta-image-2',
        size: '1024x1536',
        quality: 'low',
      });
    });

    it('takes a freeform WxH within the ceiling, in the asked format; quality aliases become native levels', async () => {
      const { client, sim } = ctx();
      const r = await client.images.generate({
        model: 'delta-image-2',
        prompt: 'a wide harbour',
        size: '1280x720' as never,
        output_format: 'webp',
        quality: 'hd' as never,
        n: 2,
      });
      expect(r.data).toHaveLength(2);
      for (const d of r.data!) expect(imageOf(d.b64_json!)).toMatchObject({ format: 'webp', width: 1280, height: 720 });
      expect((await sim.lastTo('/v1/images/generations'))!.body).toMatchObject({ size: '1280x720', quality: 'high', n: 2 });
    });

    it.each([
      ['a side over 3840', { size: '3856x2048' }, 'size'],
      ['a side not a multiple of 16', { size: '1000x1000' }, 'size'],
      ['a ratio over 3:1', { size: '3840x1024' }, 'size'],
      ['a size that is not WxH', { size: 'big' }, 'size'],
      ['more than 10 images', { n: 11 }, 'n'],
      ['an unknown quality', { quality: 'ultra' }, 'quality'],
      ['an unknown output format', { output_format: 'gif' }, 'output_format'],
      ['a transparent background in jpeg', { background: 'transparent', output_format: 'jpeg' }, 'background'],
      ['no prompt', { prompt: undefined }, 'prompt'],
    ])('answers %s with 400 in Shape B', async (_l, patch, param) => {
      await expect400(await generate({ model: 'delta-image-2', prompt: 'p', ...patch }), param, 'invalid_value');
    });

    it('refuses freeform sizes on delta-image-1, url answers on delta-image-*, and delta-e-2 on this endpoint', async () => {
      await expect400(await generate({ model: 'delta-image-1', prompt: 'p', size: '1280x720' }), 'size', 'invalid_value');
      await expect400(
        await generate({ model: 'delta-image-2', prompt: 'p', response_format: 'url' }),
        'response_format',
        'unsupported_parameter',
      );
      await expect400(await generate({ model: 'delta-e-2', prompt: 'p' }), 'model', 'model_not_supported');
    });
  });

  describe('POST /v1/images/edits', () => {
    it('edits a file with a mask through the SDK: the asked size, image tokens of the input, charged in the ledger', async () => {
      const { stack, admin, sim } = ctx();
      const { accountId, key } = await admin.fundedKey(5);
      const { data: r, response } = await openaiFor(stack, key)
        .images.edit({
          model: 'delta-image-2',
          image: await pngFile(png(256, 256)),
          mask: await pngFile(png(256, 256, { alpha: true, transparentFrom: 128 }), 'mask.png'),
          prompt: 'paint a boat on the right',
          size: '1024x1024',
        })
        .withResponse();
      expect(imageOf(r.data![0].b64_json!)).toMatchObject({ format: 'png', width: 1024, height: 1024 });
      // One 512-px tile of vision tokens for a 256x256 input (the simulator's count, passed through).
      expect(r.usage!.input_tokens_details).toEqual({ text_tokens: expect.any(Number), image_tokens: 255 });
      const sent = await sim.lastTo('/v1/images/edits');
      expect(sent!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);

      const entry = await chargeOf(admin, accountId, response.headers.get('x-request-id')!);
      expect(entry.units).toMatchObject({
        input_tokens: r.usage!.input_tokens_details!.text_tokens,
        image_input_tokens: 255,
        output_tokens: r.usage!.output_tokens,
      });
      // delta-image-2: $5 text input, $8 image input, $30 output per million tokens (docs/pricing.md).
      const u = r.usage!;
      expect(entry.cost_micros).toBe(Math.ceil((u.input_tokens_details!.text_tokens * 5e6 + 255 * 8e6 + u.output_tokens * 30e6) / 1e6));
    });

    it('judges files by their bytes: a JPEG named .png is a JPEG, several images go as image[]', async () => {
      const { client } = ctx();
      const jpeg = Buffer.from(
        (
          await client.images.generate({
            model: 'delta-image-2',
            prompt: 'jpeg source',
            size: '1024x1024',
            output_format: 'jpeg',
            quality: 'low',
          })
        ).data![0].b64_json!,
        'base64',
      );
      expect(sniffImage(jpeg)?.format).toBe('jpeg');
      const res = await edit({ model: 'delta-image-2', prompt: 'merge them', output_format: 'webp' }, [
        ['image[]', jpeg, 'misnamed.png', 'image/png'],
        ['image[]', png(64, 64)],
      ]);
      expect(res.status).toBe(200);
      const body = await json(res);
      expect(imageOf(body.data[0].b64_json)).toMatchObject({ format: 'webp', width: 1024, height: 1024 });
      expect(body.usage.input_tokens_details.image_tokens).toBe(85 + 170 * 4 + 85 + 170);
    });

    it.each([
      [
        'an image that is not PNG, JPEG or WebP',
        {},
        [['image', Buffer.from('GIF89a....'), 'a.gif', 'image/gif']],
        'image',
        'invalid_image_format',
      ],
      [
        'a mask of another size',
        {},
        [
          ['image', png(64, 64)],
          ['mask', png(32, 32, { alpha: true })],
        ],
        'mask',
        'invalid_mask',
      ],
      [
        'a mask without transparency',
        {},
        [
          ['image', png(64, 64)],
          ['mask', png(64, 64)],
        ],
        'mask',
        'invalid_mask',
      ],
      [
        'a mask that is not a PNG',
        {},
        [
          ['image', png(64, 64)],
          ['mask', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0, 0, 0, 0])],
        ],
        'mask',
        'invalid_mask',
      ],
      ['no image', {}, [], 'image', 'missing_required_parameter'],
      ['a mask sent as a text field, not a file', { mask: 'notafile' }, [['image', png(64, 64)]], 'mask', 'invalid_value'],
      [
        'two images on delta-e-2',
        { model: 'delta-e-2' },
        [
          ['image[]', png(64, 64)],
          ['image[]', png(64, 64)],
        ],
        'image',
        'invalid_value',
      ],
      ['a delta-image size on delta-e-2', { model: 'delta-e-2', size: '1024x1536' }, [['image', png(64, 64)]], 'size', 'invalid_value'],
      [
        'output_format on delta-e-2',
        { model: 'delta-e-2', output_format: 'png' },
        [['image', png(64, 64)]],
        'output_format',
        'unsupported_parameter',
      ],
      ['2K on the edits endpoint', { size: '2048x2048' }, [['image', png(64, 64)]], 'size', 'invalid_value'],
      [
        'a transparent background in jpeg',
        { background: 'transparent', output_format: 'jpeg' },
        [['image', png(64, 64)]],
        'background',
        'invalid_value',
      ],
      ['n over 10', { n: '11' }, [['image', png(64, 64)]], 'n', 'invalid_value'],
      ['an alpha model', { model: 'alpha-image-edit' }, [['image', png(64, 64)]], 'model', 'model_not_supported'],
    ] as Array<[string, Record<string, string>, Array<[string, Buffer, string?, string?]>, string, string]>)(
      'answers %s with 400 in Shape B',
      async (_l, fields, files, param, code) => {
        await expect400(await edit({ model: 'delta-image-2', prompt: 'edit', ...fields }, files), param, code);
      },
    );

    it.each([
      ['a JSON body', 'application/json', JSON.stringify({ model: 'delta-image-2', prompt: 'x' })],
      ['a form-urlencoded body', 'application/x-www-form-urlencoded', 'model=delta-image-2&prompt=x'],
      ['a text body that is not JSON', 'text/plain', 'edit this'],
      ['malformed JSON', 'application/json', '{"model": "delta-image-2",'],
    ])('answers %s with 400 invalid_content_type: the endpoint takes multipart', async (_body, type, body) => {
      const res = await fetch(`${ctx().stack.baseURL}/images/edits`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ctx().stack.apiKey}`, 'content-type': type },
        body,
      });
      expect(res.status).toBe(400);
      expect((await json(res)).error.code).toBe('invalid_content_type');
    });

    it('answers a malformed multipart body with 400 invalid_multipart, never 500', async () => {
      const part = `--b0\r\nContent-Disposition: form-data; name="model"\r\n\r\ndelta-image-2\r\n`;
      for (const [contentType, body] of [
        ['multipart/form-data', `${part}--b0--\r\n`], // no boundary
        ['multipart/form-data; boundary=other', `${part}--b0--\r\n`], // another boundary
        ['multipart/form-data; boundary=b0', `${part}--b0\r\nContent-Disposition: form-data; name="prompt"\r\n\r\ncut`], // cut off
      ]) {
        const res = await fetch(`${ctx().stack.baseURL}/images/edits`, {
          method: 'POST',
          headers: { authorization: `Bearer ${ctx().stack.apiKey}`, 'content-type': contentType! },
          body,
        });
        expect(res.status).toBe(400);
        expect((await json(res)).error).toMatchObject({ code: 'invalid_multipart', type: 'invalid_request_error' });
      }
    });

    it('answers a file over 25 MiB with 413 before the upload ends', async () => {
      const url = new URL(`${ctx().stack.baseURL}/images/edits`);
      const boundary = 'xxBOUNDARYxx';
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: 'POST',
            headers: { authorization: `Bearer ${ctx().stack.apiKey}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode!);
            req.destroy();
          },
        );
        req.on('error', (e) => (e.message.includes('EPIPE') || e.message.includes('ECONNRESET') ? undefined : reject(e)));
        req.write(`--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\ndelta-image-2\r\n`);
        req.write(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`);
        // 26 MiB of file, and the request is never ended: only an early answer resolves this.
        const mib = Buffer.alloc(1024 * 1024, 1);
        for (let i = 0; i < 26; i++) req.write(mib);
      });
      expect(status).toBe(413);
    });

    it('answers more files or fields than allowed with 413, never 500', async () => {
      const files = Array.from({ length: 18 }, () => ['image[]', png(8, 8)] as [string, Buffer]);
      const tooManyFiles = await edit({ model: 'delta-image-2', prompt: 'x' }, files);
      expect(tooManyFiles.status).toBe(413);
      // The limit in words, not the multipart plugin's "reach files limit".
      expect((await json(tooManyFiles)).error).toMatchObject({
        type: 'invalid_request_error',
        code: 'request_too_large',
        message: 'Too many files: at most 17 per request.',
      });
      const fields = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`extra${i}`, 'v']));
      const tooManyFields = await edit({ model: 'delta-image-2', prompt: 'x', ...fields }, [['image', png(8, 8)]]);
      expect(tooManyFields.status).toBe(413);
      expect((await json(tooManyFields)).error.message).toBe('Too many form fields: at most 20 per request.');
    });

    it('charges nothing when the upstream fails', async () => {
      const { stack, admin, sim } = ctx();
      const failing = await admin.fundedKey(5);
      await sim.fault({ match: { path: '/v1/images/edits' }, status: 500, count: 1 });
      const failed = await openaiFor(stack, failing.key)
        .images.edit({ model: 'delta-image-2', image: await pngFile(png(32, 32)), prompt: 'x' })
        .catch((e: unknown) => e);
      expect((failed as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
      await expectNothingCharged(admin, failing, 5);
    });
  });
}
