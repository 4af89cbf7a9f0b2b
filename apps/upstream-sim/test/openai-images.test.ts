/** The OpenAI images simulator driven by the official openai client: edits of images it cannot decode. */
import { crc32 } from 'node:zlib';
import OpenAI, { toFile } from 'openai';
import sharp from 'sharp';
import { createSimulator, type Simulator } from '../src';

let sim: Simulator;
let client: OpenAI;
let valid: Buffer;

beforeAll(async () => {
  sim = await createSimulator();
  client = new OpenAI({ baseURL: `${sim.url}/v1`, apiKey: 'sk-sim-test', maxRetries: 0 });
  valid = await sharp({ create: { width: 64, height: 64, channels: 4, background: '#3366aa' } })
    .png()
    .toBuffer();
});
afterAll(() => sim.close());

/** `image` with its PNG header claiming width×height (the CRC fixed, so only the data is short). */
function claiming(image: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(image);
  out.writeUInt32BE(width, 16);
  out.writeUInt32BE(height, 20);
  out.writeUInt32BE(crc32(out.subarray(12, 29)), 29);
  return out;
}

const edit = async (images: Buffer[]) =>
  client.images.edit({
    model: 'gpt-image-1',
    prompt: 'make it blue',
    image: await Promise.all(images.map((bytes, i) => toFile(bytes, `in${i}.png`, { type: 'image/png' }))),
  });

describe('POST /v1/images/edits with an image that does not decode', () => {
  it('answers a valid image', async () => {
    const r = await edit([valid]);
    expect(r.data?.[0].b64_json?.length).toBeGreaterThan(0);
  });

  it.each([
    ['a header claiming more pixels than its data holds', () => claiming(valid, 4096, 4096)],
    ['a header claiming 2^31 − 1 pixels a side', () => claiming(valid, 0x7fffffff, 0x7fffffff)],
    ['a file cut after its header', () => valid.subarray(0, 40)],
  ])('%s: 400 invalid_image_file naming the image, as OpenAI answers (not a 500)', async (_case, bytes) => {
    const err = await edit([valid, bytes()]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    const apiError = err as InstanceType<typeof OpenAI.APIError>;
    expect(apiError.status).toBe(400);
    expect(apiError.error).toEqual({
      message: 'Invalid image file or mode for image 2, please check your image file.',
      type: 'image_generation_user_error',
      param: null,
      code: 'invalid_image_file',
    });
  });
});
