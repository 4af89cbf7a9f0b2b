/**
 * OpenAI's images API: POST /v1/images/generations (JSON) and POST /v1/images/edits (multipart),
 * answering real base64 images at the requested size and format, and OpenAI's usage: text and
 * vision tokens of the input, output tokens by size and quality (reference/openai.md).
 */
import multipart from '@fastify/multipart';
import { countTextTokens } from '@unigate/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { openAiErrorBody, invalidRequestBody, type OpenAiErrorBody } from '../openai/openai-errors';
import { decodedSize, editedImage, generatedImage, type OutputFormat } from '../shared/image-bytes';
import type { SimState } from '../sim-state';

const GENERATIONS = '/v1/images/generations';
const EDITS = '/v1/images/edits';
const FORMATS = ['png', 'jpeg', 'webp'];
const QUALITY_TOKENS: Record<string, number> = { low: 272, medium: 1056, high: 4160, auto: 1056, standard: 1056 };

/** Output tokens of one image: the 1024x1024 figure of its quality, scaled by its area. */
const outputTokens = (w: number, h: number, quality: string) => Math.ceil(((QUALITY_TOKENS[quality] ?? 1056) * w * h) / (1024 * 1024));
/**
 * OpenAI's answer to an input image it cannot decode (a truncated or corrupt file, or one whose header
 * claims a size its data does not hold), as its API words it; the image is numbered from 1.
 */
const invalidImageFile = (index: number): OpenAiErrorBody => ({
  error: {
    message: `Invalid image file or mode for image ${index + 1}, please check your image file.`,
    type: 'image_generation_user_error',
    param: null,
    code: 'invalid_image_file',
  },
});

/** Vision tokens of an input image: 85 plus 170 per 512-px tile. */
const visionTokens = (w: number, h: number) => 85 + 170 * Math.ceil(w / 512) * Math.ceil(h / 512);

function parseSize(size: string | undefined): { width: number; height: number } | undefined {
  const m = /^(\d+)x(\d+)$/.exec(size ?? '');
  return m ? { width: Number(m[1]), height: Number(m[2]) } : undefined;
}

export async function imagesRoutes(app: FastifyInstance, opts: { state: SimState }): Promise<void> {
  const { state } = opts;
  await app.register(multipart, { limits: { fileSize: 64 * 1024 * 1024 } });

  const fault = async (model: unknown, path: string, reply: FastifyReply) => {
    const f = state.faults.take({ model: typeof model === 'string' ? model : undefined, path }, reply);
    if (f?.latency_ms) await new Promise((r) => setTimeout(r, f.latency_ms));
    if (f?.status) {
      await reply.code(f.status).send(openAiErrorBody(f.status, f.message));
      return true;
    }
    return false;
  };

  app.post(GENERATIONS, async (req, reply) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (await fault(body.model, GENERATIONS, reply)) return reply;
    if (typeof body.prompt !== 'string' || !body.prompt) return reply.code(400).send(invalidRequestBody("'prompt' is required", 'prompt'));
    const format = String(body.output_format ?? 'png');
    if (!FORMATS.includes(format)) return reply.code(400).send(invalidRequestBody('bad output_format', 'output_format'));
    const size = parseSize(body.size as string | undefined) ?? { width: 1024, height: 1024 };
    const quality = String(body.quality ?? 'auto');
    const n = Number(body.n ?? 1);
    const transparent = body.background === 'transparent';
    const data = await Promise.all(
      Array.from({ length: n }, async (_, i) => ({
        b64_json: (await generatedImage(body.prompt as string, i, size.width, size.height, format as OutputFormat, transparent)).toString(
          'base64',
        ),
      })),
    );
    const text = countTextTokens(body.prompt);
    const out = outputTokens(size.width, size.height, quality) * n;
    return {
      created: Math.floor(Date.now() / 1000),
      background: transparent ? 'transparent' : 'opaque',
      output_format: format,
      quality: quality === 'auto' ? 'medium' : quality,
      size: `${size.width}x${size.height}`,
      data,
      usage: {
        input_tokens: text,
        input_tokens_details: { text_tokens: text, image_tokens: 0 },
        output_tokens: out,
        total_tokens: text + out,
      },
    };
  });

  app.post(EDITS, async (req, reply) => {
    const fields: Record<string, string> = {};
    const images: Buffer[] = [];
    let mask: Buffer | undefined;
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (part.fieldname === 'mask') mask = data;
        else images.push(data);
      } else fields[part.fieldname] = String(part.value);
    }
    if (await fault(fields.model, EDITS, reply)) return reply;
    if (!fields.prompt) return reply.code(400).send(invalidRequestBody("'prompt' is required", 'prompt'));
    if (images.length === 0) return reply.code(400).send(invalidRequestBody("'image' is required", 'image'));
    const format = (fields.output_format ?? 'png') as OutputFormat;
    const quality = fields.quality ?? 'auto';
    const n = Number(fields.n ?? 1);
    const size = parseSize(fields.size);
    let imageTokens = 0;
    for (const [i, img] of images.entries()) {
      const decoded = await decodedSize(img);
      if (!decoded) return reply.code(400).send(invalidImageFile(i));
      imageTokens += visionTokens(decoded.width, decoded.height);
    }
    const made = await Promise.all(Array.from({ length: n }, (_, i) => editedImage(images[0], mask, fields.prompt, i, size, format)));
    const text = countTextTokens(fields.prompt);
    const out = made.reduce((s, m) => s + outputTokens(m.width, m.height, quality), 0);
    const legacyUrl = fields.response_format === 'url';
    return {
      created: Math.floor(Date.now() / 1000),
      background: 'opaque',
      output_format: format,
      quality: quality === 'auto' ? 'medium' : quality,
      size: `${made[0].width}x${made[0].height}`,
      data: made.map((m) =>
        legacyUrl ? { url: `data:image/${format};base64,${m.bytes.toString('base64')}` } : { b64_json: m.bytes.toString('base64') },
      ),
      usage: {
        input_tokens: text + imageTokens,
        input_tokens_details: { text_tokens: text, image_tokens: imageTokens },
        output_tokens: out,
        total_tokens: text + imageTokens + out,
      },
    };
  });
}
