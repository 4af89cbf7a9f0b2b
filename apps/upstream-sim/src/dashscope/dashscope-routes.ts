/**
 * DashScope (reference/dashscope.md): native text embeddings, and the multimodal-generation path for
 * alpha3 speech and alpha images — whose answers link to real WAV and PNG files this simulator
 * serves. Errors in Shape A.
 */
import { randomUUID } from 'node:crypto';
import { countTextTokens, dropOldest } from '@unigate/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { embeddingVector } from '../shared/embedding-vector';
import { generatedImage } from '../shared/image-bytes';
import { speechWavStream } from '../shared/wav';
import type { SimState } from '../sim-state';

export const EMBEDDING_PATH = '/api/v1/services/embeddings/text-embedding/text-embedding';
export const MULTIMODAL_PATH = '/api/v1/services/aigc/multimodal-generation/generation';
const AUDIO_PREFIX = '/_files/audio/';
const IMAGE_PREFIX = '/_files/images/';
/** Result images kept for their links (oldest dropped first; each is a few hundred KB). */
const MAX_IMAGE_LINKS = 200;
/** Synthesised texts kept for their audio links (oldest dropped first). */
const MAX_AUDIO_LINKS = 2000;

const DEFAULT_MESSAGES: Record<number, [string, string]> = {
  400: ['InvalidParameter', 'Invalid parameter (simulated).'],
  401: ['InvalidApiKey', 'Invalid API-key provided (simulated).'],
  403: ['AccessDenied', 'Access denied (simulated).'],
  404: ['ModelNotFound', 'Model not found (simulated).'],
  429: ['Throttling.RateQuota', 'Requests rate limit exceeded (simulated).'],
};

export function dashscopeError(reply: FastifyReply, status: number, message?: string, code?: string) {
  const [defCode, defMessage] = DEFAULT_MESSAGES[status] ?? [
    status >= 500 ? 'InternalError' : 'InvalidParameter',
    `Simulated error ${status}.`,
  ];
  return reply.code(status).send({ code: code ?? defCode, message: message ?? defMessage, request_id: randomUUID() });
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});

export async function dashscopeRoutes(app: FastifyInstance, opts: { state: SimState }): Promise<void> {
  const { state } = opts;
  const audio = new Map<string, string>();
  const images = new Map<string, Buffer>();

  /** A fault set for this request answered (true), after its latency. */
  const faulted = async (req: FastifyRequest, reply: FastifyReply, path: string) => {
    const model = obj(req.body).model;
    const fault = state.faults.take({ model: typeof model === 'string' ? model : undefined, path }, reply);
    if (fault?.latency_ms) await new Promise((r) => setTimeout(r, fault.latency_ms));
    if (fault?.status) {
      await dashscopeError(reply, fault.status, fault.message);
      return true;
    }
    return false;
  };

  app.post(EMBEDDING_PATH, async (req, reply) => {
    if (await faulted(req, reply, EMBEDDING_PATH)) return reply;
    const body = obj(req.body);
    const texts = obj(body.input).texts;
    if (!Array.isArray(texts) || texts.length === 0 || !texts.every((t) => typeof t === 'string' && t.length > 0))
      return dashscopeError(reply, 400, 'input.texts must be a non-empty list of strings');
    const dimension = Number(obj(body.parameters).dimension ?? 1024);
    if (![2048, 1536, 1024, 768, 512, 256, 128, 64].includes(dimension))
      return dashscopeError(reply, 400, `unsupported dimension ${dimension}`);
    const tokens = (texts as string[]).reduce((s, t) => s + countTextTokens(t), 0);
    return {
      output: {
        embeddings: (texts as string[]).map((t, text_index) => ({ text_index, embedding: embeddingVector(t, dimension) })).reverse(),
      },
      usage: { total_tokens: tokens },
      request_id: randomUUID(),
    };
  });

  app.post(MULTIMODAL_PATH, async (req, reply) => {
    if (await faulted(req, reply, MULTIMODAL_PATH)) return reply;
    const body = obj(req.body);
    const input = obj(body.input);
    if (Array.isArray(input.messages)) return generateImage(req, body, input.messages);
    if (typeof input.text !== 'string') return dashscopeError(reply, 400, 'input.text or input.messages is required');
    if (input.text.trim() === '') return dashscopeError(reply, 400, 'input.text must not be empty');
    const id = randomUUID();
    audio.set(id, input.text);
    dropOldest(audio, MAX_AUDIO_LINKS);
    const url = `http://${req.headers.host}${AUDIO_PREFIX}${id}.wav?Expires=${Math.floor(Date.now() / 1000) + 86400}`;
    return {
      request_id: randomUUID(),
      output: { finish_reason: 'stop', audio: { url, data: '', id: `audio_${id}`, expires_at: Math.floor(Date.now() / 1000) + 86400 } },
      usage: { characters: [...input.text].length },
    };
  });

  /** Alpha image generation: a real PNG at `parameters.size` (W*H), linked like the vendor's OSS results. */
  async function generateImage(req: FastifyRequest, body: Json, messages: unknown[]) {
    const content = obj(messages[0]).content;
    const prompt = (Array.isArray(content) ? content : [])
      .map((b) => obj(b).text)
      .filter((t) => typeof t === 'string')
      .join(' ');
    const [width, height] = String(obj(body.parameters).size ?? '1024*1024')
      .split('*')
      .map(Number);
    const id = randomUUID();
    images.set(id, await generatedImage(`${prompt}|${String(obj(body.parameters).seed ?? '')}`, 0, width, height, 'png'));
    dropOldest(images, MAX_IMAGE_LINKS);
    const expires = Math.floor(Date.now() / 1000) + 86400;
    return {
      output: {
        choices: [
          {
            finish_reason: 'stop',
            message: { role: 'assistant', content: [{ image: `http://${req.headers.host}${IMAGE_PREFIX}${id}.png?Expires=${expires}` }] },
          },
        ],
      },
      usage: { width, height, image_count: 1 },
      request_id: randomUUID(),
    };
  }

  app.get<{ Params: { file: string } }>(`${IMAGE_PREFIX}:file`, async (req, reply) => {
    const png = images.get(req.params.file.replace(/\.png$/, ''));
    if (!png) return dashscopeError(reply, 404, 'image link expired or unknown', 'NotFound');
    return reply.type('image/png').send(png);
  });

  app.get<{ Params: { file: string } }>(`${AUDIO_PREFIX}:file`, async (req, reply) => {
    const text = audio.get(req.params.file.replace(/\.wav$/, ''));
    if (text === undefined) return dashscopeError(reply, 404, 'audio link expired or unknown', 'NotFound');
    return reply.type('audio/wav').send(speechWavStream(text));
  });
}
