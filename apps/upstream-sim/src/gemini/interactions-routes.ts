/**
 * Gemini Interactions for gamma images (reference/gemini.md, early shape): POST /v1beta/interactions
 * answers a real image at `generation_config.image_config` (size × aspect ratio) with an `id` of form
 * `v1_…`; with `store` (default true) the interaction is kept so `previous_interaction_id` can
 * continue it; an unknown or unstored one is Gemini's 404.
 */
import { randomBytes } from 'node:crypto';
import { countTextTokens, dropOldest } from '@unigate/contracts';
import type { FastifyInstance } from 'fastify';
import { generatedImage, type OutputFormat } from '../shared/image-bytes';
import type { SimState } from '../sim-state';
import { geminiErrorBody } from './gemini-errors';

const PATH = '/v1beta/interactions';
const SIDES: Record<string, number> = { '512px': 512, '1K': 1024, '2K': 2048, '4K': 4096 };
const FORMATS: Record<string, OutputFormat> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/webp': 'webp' };
/** Interactions kept for previous_interaction_id (oldest dropped first). */
const MAX_KEPT = 1000;

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});

/** Width and height for a size and a ratio `w:h`: the long side is the size's side. */
export function interactionImageSize(size: string, ratio: string): { width: number; height: number } {
  const side = SIDES[size] ?? 1024;
  const [w, h] = ratio.split(':').map(Number);
  if (!w || !h) return { width: side, height: side };
  return w >= h
    ? { width: side, height: Math.max(16, Math.round((side * h) / w)) }
    : { width: Math.max(16, Math.round((side * w) / h)), height: side };
}

export async function interactionsRoutes(app: FastifyInstance, opts: { state: SimState }): Promise<void> {
  const kept = new Map<string, string[]>();

  app.post(PATH, async (req, reply) => {
    const body = obj(req.body);
    const model = typeof body.model === 'string' ? body.model : undefined;
    const fault = opts.state.faults.take({ model, path: PATH }, reply);
    if (fault?.latency_ms) await new Promise((r) => setTimeout(r, fault.latency_ms));
    if (fault?.status) return reply.code(fault.status).send(geminiErrorBody(fault.status, fault.message));

    const input = body.input;
    const texts =
      typeof input === 'string'
        ? [input]
        : Array.isArray(input)
          ? input.map((b) => obj(b).text).filter((t): t is string => typeof t === 'string')
          : [];
    const images = Array.isArray(input) ? input.filter((b) => obj(b).type === 'image').length : 0;
    if (texts.length === 0 && images === 0) return reply.code(400).send(geminiErrorBody(400, 'input is required'));
    const previous = body.previous_interaction_id;
    let history: string[] = [];
    if (previous !== undefined) {
      const found = typeof previous === 'string' ? kept.get(previous) : undefined;
      if (!found) return reply.code(404).send(geminiErrorBody(404, `Interaction ${String(previous)} was not found.`));
      history = found;
    }
    const turns = [...history, ...texts];
    const config = obj(obj(body.generation_config).image_config);
    const { width, height } = interactionImageSize(String(config.image_size ?? '1K'), String(config.aspect_ratio ?? '1:1'));
    const mime = typeof body.response_mime_type === 'string' && FORMATS[body.response_mime_type] ? body.response_mime_type : 'image/png';
    const image = await generatedImage(turns.join('\n'), 0, width, height, FORMATS[mime]);
    const id = `v1_${randomBytes(12).toString('base64url')}`;
    if (body.store !== false) {
      kept.set(id, turns);
      dropOldest(kept, MAX_KEPT);
    }
    const inputTokens = countTextTokens(turns.join('\n')) + images * 1290;
    const now = new Date().toISOString();
    return {
      id,
      status: 'completed',
      created: now,
      updated: now,
      model,
      role: 'model',
      outputs: [
        { type: 'text', text: `Here is the image (${width}x${height}).` },
        { type: 'image', mime_type: mime, data: image.toString('base64') },
      ],
      usage: { total_input_tokens: inputTokens, total_output_tokens: 1290, total_thought_tokens: 0, total_tokens: inputTokens + 1290 },
    };
  });
}
