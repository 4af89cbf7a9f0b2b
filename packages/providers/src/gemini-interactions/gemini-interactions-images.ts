/**
 * Gamma images over Gemini Interactions (reference/gemini.md, the early shape whose field names
 * SPEC.md §2.5 uses): our snake_case request mapped to `POST /v1beta/interactions`, search tools
 * removed, the size and ratio as `generation_config.image_config`. A `previous_interaction_id` must
 * be one of the caller's own stored interactions (404 otherwise); a stored answer's id is recorded
 * for its retention period, which follows the caller's tier.
 */
import { errors, gammaImageSize, GatewayError, type AccountTier, type Channel, type GammaGenerationRequest } from '@unigate/contracts';
import { z } from 'zod';
import type { CallContext, Measured } from '../adapter';
import type { InteractionRegistry } from '../adapter-deps';
import type { HttpClient } from '../http/http-client';
import { postUpstreamJson } from '../http/post-upstream';
import { geminiErrorPolicy } from '../gemini-generate/gemini-generate-errors';

const DAY_MS = 24 * 60 * 60 * 1000;
/** SPEC.md §2.5 / §8: stored history is kept 55 days on the paid tier and 1 day on the free tier. */
export const INTERACTION_RETENTION_MS: Readonly<Record<AccountTier, number>> = { paid: 55 * DAY_MS, free: DAY_MS };
/**
 * A search tool (SPEC.md §2.5: removed), however the client wrote it: by its `type`
 * (`{type: 'google_search'}`) or by its own key, snake or camel case (`{google_search: {}}`,
 * `{googleSearch: {}}`, `{google_search_retrieval: {}}`).
 */
const isSearchTool = (tool: Record<string, unknown>) =>
  [tool.type, ...Object.keys(tool)].some((name) => typeof name === 'string' && /search/i.test(name));

export const interactionSchema = z.looseObject({
  id: z.string(),
  status: z.string().optional(),
  outputs: z
    .array(z.looseObject({ type: z.string(), mime_type: z.string().optional(), data: z.string().optional(), text: z.string().optional() }))
    .default([]),
  usage: z
    .looseObject({
      total_input_tokens: z.number().int().nonnegative().optional(),
      total_output_tokens: z.number().int().nonnegative().optional(),
    })
    .optional(),
});
export type Interaction = z.infer<typeof interactionSchema>;

export function toInteractionBody(channel: Channel, req: GammaGenerationRequest): Record<string, unknown> {
  const rf = req.response_format;
  const imageConfig = { ...(rf?.aspect_ratio && { aspect_ratio: rf.aspect_ratio }), ...(rf?.image_size && { image_size: rf.image_size }) };
  const generation = { ...req.generation_config, ...(Object.keys(imageConfig).length > 0 && { image_config: imageConfig }) };
  const tools = req.tools?.filter((t) => !isSearchTool(t));
  return {
    model: channel.upstream_model,
    input: req.input,
    ...(req.system_instruction !== undefined && { system_instruction: req.system_instruction }),
    ...(tools && tools.length > 0 && { tools }),
    ...(req.store !== undefined && { store: req.store }),
    ...(req.previous_interaction_id !== undefined && { previous_interaction_id: req.previous_interaction_id }),
    response_modalities: ['IMAGE'],
    ...(rf?.mime_type && { response_mime_type: rf.mime_type }),
    ...(Object.keys(generation).length > 0 && { generation_config: generation }),
  };
}

export async function gammaGenerate(
  http: HttpClient,
  interactions: InteractionRegistry | undefined,
  channel: Channel,
  req: GammaGenerationRequest,
  ctx: CallContext,
): Promise<Measured<Interaction>> {
  if (!interactions && (req.previous_interaction_id || req.store !== false))
    throw errors.upstream(502, 'this media service keeps no interaction registry (set store: false)', false);
  if (req.previous_interaction_id) {
    const owner = await interactions!.owner(req.previous_interaction_id);
    if (!owner || owner.account_id !== ctx.account_id || owner.expiresAt <= Date.now())
      throw new GatewayError({
        status: 404,
        code: 'interaction_not_found',
        param: 'previous_interaction_id',
        message: `No stored interaction '${req.previous_interaction_id}' (it expired, was made with store: false, or belongs to another account).`,
      });
  }
  const answer = await postUpstreamJson(
    http,
    {
      url: `${channel.base_url.replace(/\/+$/, '')}/v1beta/interactions`,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(channel.api_key && { 'x-goog-api-key': channel.api_key }),
      },
      body: JSON.stringify(toInteractionBody(channel, req)),
      signal: ctx.signal,
    },
    geminiErrorPolicy,
    { schema: interactionSchema, what: 'interaction' },
  );
  const images = answer.outputs.filter((o) => o.type === 'image').length;
  if (images === 0) throw errors.upstream(502, `upstream answered without an image (status ${answer.status ?? 'unknown'})`, true);
  if (req.store !== false) await interactions!.remember(answer.id, ctx.account_id, Date.now() + INTERACTION_RETENTION_MS[ctx.tier]);
  return {
    value: answer,
    usage: { input_tokens: answer.usage?.total_input_tokens ?? 0, images, image_size: gammaImageSize(req) },
  };
}
