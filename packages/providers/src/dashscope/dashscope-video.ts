/**
 * Beta video over DashScope async tasks (reference/dashscope.md): the submission carries
 * `X-DashScope-Async: enable` and the client's `input` and `parameters` unchanged; the task is
 * polled at /api/v1/tasks/{id}. An id the upstream no longer knows (UNKNOWN, after 24 h) has failed.
 */
import type { Channel, VideoGenerationRequest, VideoTaskStatus } from '@unigate/contracts';
import { z } from 'zod';
import type { HttpClient } from '../http/http-client';
import { postUpstreamJson, sendUpstreamJson } from '../http/post-upstream';
import { bearerJson } from '../openai-embeddings/openai-embeddings-client';
import type { PolledVideoTask, SubmittedVideoTask, VideoUpstream } from '../video/video-upstream';
import { dashscopeErrorPolicy, dashscopeUrl } from './dashscope-errors';

export const DASHSCOPE_VIDEO_PATH = '/api/v1/services/aigc/video-generation/video-synthesis';
export const DASHSCOPE_TASKS_PATH = '/api/v1/tasks/';

const STATUS: Readonly<Record<string, VideoTaskStatus>> = {
  PENDING: 'queued',
  RUNNING: 'running',
  SUSPENDED: 'running',
  SUCCEEDED: 'succeeded',
  FAILED: 'failed',
  CANCELED: 'cancelled',
  UNKNOWN: 'failed',
};

const submitAnswerSchema = z.looseObject({ output: z.looseObject({ task_id: z.string().min(1), task_status: z.string() }) });
const taskAnswerSchema = z.looseObject({
  output: z.looseObject({
    task_id: z.string(),
    task_status: z.string(),
    video_url: z.string().optional(),
    seed: z.number().int().optional(),
    code: z.string().optional(),
    message: z.string().optional(),
  }),
  usage: z.looseObject({}).optional(),
});

export class DashscopeVideo implements VideoUpstream {
  constructor(private readonly http: HttpClient) {}

  async submit(channel: Channel, req: VideoGenerationRequest, signal: AbortSignal): Promise<SubmittedVideoTask> {
    const answer = await postUpstreamJson(
      this.http,
      {
        url: dashscopeUrl(channel.base_url, DASHSCOPE_VIDEO_PATH),
        headers: { ...bearerJson(channel.api_key), 'x-dashscope-async': 'enable' },
        body: JSON.stringify({ model: channel.upstream_model, input: req.input, parameters: req.parameters ?? {} }),
        signal,
      },
      dashscopeErrorPolicy,
      { schema: submitAnswerSchema, what: 'video task submission' },
    );
    return { upstream_id: answer.output.task_id, native: answer };
  }

  async poll(channel: Channel, upstreamId: string, signal: AbortSignal): Promise<PolledVideoTask> {
    const answer = await sendUpstreamJson(
      this.http,
      {
        method: 'GET',
        url: dashscopeUrl(channel.base_url, DASHSCOPE_TASKS_PATH + encodeURIComponent(upstreamId)),
        headers: bearerJson(channel.api_key),
        signal,
      },
      dashscopeErrorPolicy,
      { schema: taskAnswerSchema, what: 'video task' },
    );
    const out = answer.output;
    const status = STATUS[out.task_status] ?? 'running';
    return {
      status,
      ...(out.video_url !== undefined && { video_url: out.video_url }),
      seed: out.seed ?? null,
      ...(answer.usage && { usage: answer.usage }),
      ...(status === 'failed' && {
        error: {
          code: out.code ?? (out.task_status === 'UNKNOWN' ? 'TaskExpired' : 'TaskFailed'),
          message: out.message ?? `upstream task ${out.task_status}`,
        },
      }),
      native: answer,
    };
  }
}
