/**
 * An asynchronous video upstream: submit a task, then poll it until it ends. Each vendor protocol
 * (DashScope async tasks, Ark content-generation tasks) maps its own states onto the platform's.
 */
import type { Channel, VideoGenerationRequest, VideoTaskStatus } from '@unigate/contracts';

export interface SubmittedVideoTask {
  upstream_id: string;
  /** The upstream's own answer to the submission. */
  native: unknown;
}

export interface PolledVideoTask {
  status: VideoTaskStatus;
  /** The upstream's result link, once succeeded (short-lived: the service keeps a copy). */
  video_url?: string;
  seed?: number | null;
  /** What the upstream says it produced (its own words). */
  usage?: Record<string, unknown>;
  error?: { code: string; message: string };
  native: unknown;
}

export interface VideoUpstream {
  submit(channel: Channel, req: VideoGenerationRequest, signal: AbortSignal): Promise<SubmittedVideoTask>;
  poll(channel: Channel, upstreamId: string, signal: AbortSignal): Promise<PolledVideoTask>;
}
