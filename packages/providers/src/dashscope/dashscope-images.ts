/**
 * Alpha images over DashScope multimodal generation (reference/dashscope.md): the request passes as
 * the client sent it (the model swapped for the channel's), each result image is fetched from the
 * upstream's link under the SSRF guard and kept in the object store, and the answer carries the
 * gateway's own signed link in its place (SPEC.md §2.3: valid 24 hours).
 */
import { errors, sniffImage, type Channel, type Usage } from '@unigate/contracts';
import { z } from 'zod';
import type { CallContext, Measured } from '../adapter';
import type { ResultStore } from '../adapter-deps';
import type { HttpClient } from '../http/http-client';
import { postUpstreamJson } from '../http/post-upstream';
import { readAll, safeFetch } from '../http/safe-fetch';
import { bearerJson } from '../openai-embeddings/openai-embeddings-client';
import { dashscopeErrorPolicy, dashscopeUrl } from './dashscope-errors';
import { DASHSCOPE_MULTIMODAL_PATH } from './dashscope-tts';

/** The largest result image fetched (a 1664x928 PNG is a few MB). */
const MAX_RESULT_BYTES = 32 * 1024 * 1024;
const RESULT_FETCH_TIMEOUT_MS = 60_000;
const MIME = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' } as const;

export const alphaImageAnswerSchema = z.looseObject({
  request_id: z.string().optional(),
  output: z.looseObject({
    choices: z.array(
      z.looseObject({
        finish_reason: z.string().optional(),
        message: z.looseObject({ role: z.string().optional(), content: z.array(z.looseObject({ image: z.string().optional() })) }),
      }),
    ),
  }),
  usage: z
    .looseObject({ image_count: z.number().int().nonnegative().optional(), width: z.number().optional(), height: z.number().optional() })
    .optional(),
});
export type AlphaImageAnswer = z.infer<typeof alphaImageAnswerSchema>;

export async function alphaGenerate(
  http: HttpClient,
  results: ResultStore | undefined,
  channel: Channel,
  req: Record<string, unknown>,
  ctx: CallContext,
): Promise<Measured<AlphaImageAnswer>> {
  // Without object storage the results could not be served: refused before the upstream is paid.
  if (!results)
    throw errors.upstream(
      503,
      `${req.model ?? 'This model'} is not available on this gateway: its results need object storage, which is not configured.`,
      false,
    );
  const answer = await postUpstreamJson(
    http,
    {
      url: dashscopeUrl(channel.base_url, DASHSCOPE_MULTIMODAL_PATH),
      headers: bearerJson(channel.api_key),
      body: JSON.stringify({ ...req, model: channel.upstream_model }),
      signal: ctx.signal,
    },
    dashscopeErrorPolicy,
    { schema: alphaImageAnswerSchema, what: 'image answer' },
  );
  const trusted = [new URL(channel.base_url).origin];
  let images = 0;
  for (const choice of answer.output.choices)
    for (const item of choice.message.content) {
      if (!item.image) continue;
      const fetched = await safeFetch(item.image, {
        trustedOrigins: trusted,
        signal: ctx.signal,
        maxBytes: MAX_RESULT_BYTES,
        timeoutMs: RESULT_FETCH_TIMEOUT_MS,
      });
      const bytes = await readAll(fetched.body);
      const format = sniffImage(bytes)?.format;
      if (!format) throw errors.upstream(502, 'upstream result is not a PNG, JPEG or WebP image', true);
      item.image = await results.keep(bytes, MIME[format]);
      images++;
    }
  const usage: Usage = { images: answer.usage?.image_count ?? images };
  return { value: { ...answer, request_id: ctx.request_id }, usage };
}
