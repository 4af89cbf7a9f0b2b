/**
 * The video task record (SPEC.md §2.6, §3): the platform envelope — id, status, model, timestamps,
 * upstream id — over the upstream's native record. Once terminal it holds `content` (a time-limited
 * `video_url`), `usage` and `seed`. docs/video.md draws the state machine.
 */
import { z } from 'zod';

/** queued → running → succeeded | failed | cancelled; a task that outlives its timeout fails. */
export const VIDEO_TASK_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type VideoTaskStatus = (typeof VIDEO_TASK_STATUSES)[number];
export const TERMINAL_VIDEO_STATUSES: readonly VideoTaskStatus[] = ['succeeded', 'failed', 'cancelled'];
export const isTerminalVideoStatus = (s: VideoTaskStatus) => TERMINAL_VIDEO_STATUSES.includes(s);

export const videoTaskSchema = z.looseObject({
  id: z.string(),
  object: z.literal('video.generation.task'),
  status: z.enum(VIDEO_TASK_STATUSES),
  model: z.string(),
  /** Unix seconds. */
  created_at: z.number().int(),
  updated_at: z.number().int(),
  /** The upstream's own task id (a `cgt-` id on Ark), null until submitted. */
  upstream_id: z.string().nullable(),
  webhook_url: z.string().optional(),
  content: z.looseObject({ video_url: z.string() }).optional(),
  usage: z.looseObject({}).optional(),
  seed: z.number().int().nullable().optional(),
  error: z.looseObject({ code: z.string(), message: z.string() }).optional(),
  /** The upstream's last native record, as it sent it. */
  upstream: z.unknown().optional(),
});
export type VideoTask = z.infer<typeof videoTaskSchema>;

/**
 * The lookup (GET /v1/videos/generations/{id}): a platform id or an upstream id. At most 100
 * characters, Fastify's maxParamLength: the edge answers a longer one 414 before any route runs.
 */
export const videoTaskLookupSchema = z.object({ id: z.string().min(1).max(100) });
export type VideoTaskLookup = z.infer<typeof videoTaskLookupSchema>;

/** The most tasks one listing of an account's newest returns (VideoTaskPort.recent). */
export const MAX_RECENT_VIDEO_TASKS = 50;
