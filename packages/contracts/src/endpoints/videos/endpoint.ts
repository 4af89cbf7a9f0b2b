/**
 * POST /v1/videos/generations (SPEC.md §2.6): a 202 with the task record. The hold reserves the
 * requested seconds at the resolution's price and outlives the answer: the video service settles it
 * when the task succeeds and releases it when it fails, is cancelled or times out.
 */
import { invalidParameter } from '../images/alpha-generation';
import type { EndpointSpec } from '../endpoint-spec';
import { planVideo, videoGenerationRequestSchema, type VideoGenerationRequest } from './video-rules';
import { videoTaskLookupSchema, videoTaskSchema, type VideoTask } from './video-task';

export const VIDEO_GENERATIONS_PATH = '/v1/videos/generations';
/** The longest a task may run before it is failed (docs/video.md). */
export const VIDEO_TASK_TIMEOUT_SECONDS = 60 * 60;
/** The hold outlives the task's timeout, so the settlement always finds it. */
export const VIDEO_HOLD_TTL_SECONDS = VIDEO_TASK_TIMEOUT_SECONDS + 30 * 60;

const allowPrivateWebhooks = () => process.env.UNIGATE_WEBHOOK_ALLOW_PRIVATE === '1';

export const videoGenerationsSpec: EndpointSpec<VideoGenerationRequest, VideoTask> = {
  name: 'videos.generations',
  path: VIDEO_GENERATIONS_PATH,
  example: {
    model: 'beta2.7-t2v',
    duration: 5,
    resolution: '720p',
    aspect_ratio: '16:9',
    input: { prompt: 'A lighthouse at dusk' },
    parameters: { resolution: '720P', duration: 5, prompt_extend: false },
  },
  service: 'video',
  request: videoGenerationRequestSchema,
  response: videoTaskSchema,
  kinds: ['video'],
  units: ['video_seconds', 'video_resolution'],
  errorShape: () => 'A',
  // docs/video.md: every refusal of a submission, its schema's included, is a Shape A InvalidParameter.
  invalidRequestCode: 'InvalidParameter',
  modelOf: (req) => req.model,
  isStream: () => false,
  successStatus: 202,
  unknownModel: (model) =>
    /^beta\d/.test(model) ? { family: 'beta', error: invalidParameter(`Model '${model}' is not recognised.`, 'model') } : undefined,
  localize: (task, origin) => absoluteVideoLink(task, origin),
  lookup: {
    summary:
      'A video task by its platform id or its upstream id: poll it until its status is succeeded, failed or cancelled; ' +
      'a succeeded task carries content.video_url, usage and seed.',
    params: videoTaskLookupSchema,
  },
  // The webhook goes out long after the answer: it links the video on the origin the client called.
  options: (_headers, origin) => ({ origin }),
  plan: (model, req) => {
    const { duration, resolution } = planVideo(model, req, allowPrivateWebhooks());
    return { worstCase: { video_seconds: duration, video_resolution: resolution }, holdTtlSeconds: VIDEO_HOLD_TTL_SECONDS };
  },
};

/** A kept video's link is gateway-relative; the client gets it on the origin it called. */
export function absoluteVideoLink(task: VideoTask, origin: string): VideoTask {
  const url = task.content?.video_url;
  return url?.startsWith('/') ? { ...task, content: { ...task.content, video_url: origin + url } } : task;
}
