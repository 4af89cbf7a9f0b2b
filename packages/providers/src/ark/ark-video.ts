/**
 * Video over Ark content-generation tasks (reference/ark.md): the public `content` format becomes
 * Ark's `content[]` (text, then image_url items with their role) with the top-level resolution,
 * ratio and duration; the task (`cgt-…`) is polled at /api/v3/contents/generations/tasks/{id}.
 */
import type { Channel, VideoGenerationRequest, VideoTaskStatus } from '@unigate/contracts';
import { z } from 'zod';
import type { HttpClient } from '../http/http-client';
import { postUpstreamJson, sendUpstreamJson } from '../http/post-upstream';
import { codeString, type UpstreamErrorPolicy } from '../http/upstream-errors';
import { bearerJson } from '../openai-embeddings/openai-embeddings-client';
import type { PolledVideoTask, SubmittedVideoTask, VideoUpstream } from '../video/video-upstream';

export const ARK_TASKS_PATH = '/api/v3/contents/generations/tasks';

const STATUS: Readonly<Record<string, VideoTaskStatus>> = {
  queued: 'queued',
  running: 'running',
  succeeded: 'succeeded',
  failed: 'failed',
  cancelled: 'cancelled',
};

/** Ark errors: `{"error": {"code", "message"}}`. */
export const arkErrorPolicy: UpstreamErrorPolicy = {
  detail(json) {
    const error = (json as { error?: { code?: unknown; message?: unknown } })?.error;
    if (!error || typeof error.message !== 'string') return undefined;
    const code = codeString(error.code as string | number | undefined);
    return { message: error.message, code, credentialsRejected: code === 'AuthenticationError' };
  },
};

const createdSchema = z.looseObject({ id: z.string().min(1) });
const taskSchema = z.looseObject({
  id: z.string(),
  status: z.string(),
  content: z.looseObject({ video_url: z.string().optional() }).nullish(),
  seed: z.number().int().nullish(),
  usage: z.looseObject({}).nullish(),
  duration: z.number().nullish(),
  error: z.looseObject({ code: z.string().optional(), message: z.string().optional() }).nullish(),
});

const url = (channel: Channel, path = '') => `${channel.base_url.replace(/\/+$/, '')}${ARK_TASKS_PATH}${path}`;

/** The Ark task body of a public `content`-format request. */
export function arkTaskBody(model: string, req: VideoGenerationRequest): Record<string, unknown> {
  const input = req.input as { prompt: string; media?: Array<{ type: string; url: string }> };
  const { resolution: _r, duration: _d, ...params } = (req.parameters ?? {}) as Record<string, unknown>;
  return {
    model,
    content: [
      { type: 'text', text: input.prompt },
      ...(input.media ?? []).map((m) => ({ type: 'image_url', image_url: { url: m.url }, role: m.type })),
    ],
    resolution: req.resolution ?? '720p',
    ratio: req.aspect_ratio ?? '16:9',
    duration: req.duration ?? 5,
    ...params,
  };
}

export class ArkVideo implements VideoUpstream {
  constructor(private readonly http: HttpClient) {}

  async submit(channel: Channel, req: VideoGenerationRequest, signal: AbortSignal): Promise<SubmittedVideoTask> {
    const answer = await postUpstreamJson(
      this.http,
      {
        url: url(channel),
        headers: bearerJson(channel.api_key),
        body: JSON.stringify(arkTaskBody(channel.upstream_model, req)),
        signal,
      },
      arkErrorPolicy,
      { schema: createdSchema, what: 'content-generation task' },
    );
    return { upstream_id: answer.id, native: answer };
  }

  async poll(channel: Channel, upstreamId: string, signal: AbortSignal): Promise<PolledVideoTask> {
    const task = await sendUpstreamJson(
      this.http,
      { method: 'GET', url: url(channel, `/${encodeURIComponent(upstreamId)}`), headers: bearerJson(channel.api_key), signal },
      arkErrorPolicy,
      { schema: taskSchema, what: 'content-generation task' },
    );
    const status = STATUS[task.status] ?? 'running';
    return {
      status,
      ...(task.content?.video_url && { video_url: task.content.video_url }),
      seed: task.seed ?? null,
      ...(task.usage && { usage: { ...task.usage, ...(task.duration != null && { duration: task.duration }) } }),
      ...(status === 'failed' && {
        error: { code: task.error?.code ?? 'TaskFailed', message: task.error?.message ?? 'upstream task failed' },
      }),
      native: task,
    };
  }
}
