/**
 * The dashboard's video cards' data (the account's newest tasks and webhook signing secret). It never
 * fails the page: with no video service, or one that errs or hangs, the cards say video is unavailable.
 */
import type { VideoTask, VideoTaskPort } from '@unigate/contracts';
import type { Logger } from '@unigate/platform';

export interface VideoView {
  tasks: VideoTask[];
  webhookSecret: string;
}

/** Tasks listed on the dashboard. */
export const RECENT_VIDEO_TASKS = 20;
/** How long the page waits for the video service (its gRPC calls have no deadline of their own). */
const VIDEO_TIMEOUT_MS = 3_000;

export async function loadVideoView(
  port: VideoTaskPort | undefined,
  accountId: string,
  logger: Logger,
  timeoutMs = VIDEO_TIMEOUT_MS,
): Promise<VideoView | null> {
  if (!port) return null;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const [tasks, webhookSecret] = await Promise.race([
      Promise.all([port.recent(accountId, RECENT_VIDEO_TASKS), port.webhookSecret(accountId)]),
      late,
    ]);
    return { tasks, webhookSecret };
  } catch (err) {
    logger.warn({ account: accountId, err: String(err) }, 'dashboard: the video service did not answer; video cards shown as unavailable');
    return null;
  } finally {
    clearTimeout(timer);
  }
}
