/**
 * Ark content-generation tasks (reference/ark.md): create answers a `cgt-` id, the query walks
 * queued → running → succeeded with a link to a tiny real MP4. The prompt scripts timing and
 * failures as on the DashScope route (`[sim:polls=N]`, `[sim:fail]`, `[sim:cancel]`).
 */
import { randomBytes } from 'node:crypto';
import { dropOldest } from '@unigate/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { taskScript } from '../dashscope/dashscope-video-routes';
import { tinyMp4 } from '../shared/mp4';
import type { SimState } from '../sim-state';

export const ARK_TASKS_PATH = '/api/v3/contents/generations/tasks';
const VIDEO_PREFIX = '/_files/ark-videos/';
const MAX_TASKS = 2000;

interface ArkTask {
  id: string;
  model: string;
  prompt: string;
  duration: number;
  resolution: string;
  ratio: string;
  seed: number;
  polls: number;
  pollsToEnd: number;
  outcome: 'SUCCEEDED' | 'FAILED' | 'CANCELED';
  created: number;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const arkError = (reply: FastifyReply, status: number, code: string, message: string) =>
  reply.code(status).send({ error: { code, message, type: 'BadRequest' } });

export async function arkVideoRoutes(app: FastifyInstance, opts: { state: SimState }): Promise<void> {
  const { state } = opts;
  const tasks = new Map<string, ArkTask>();

  const faulted = async (reply: FastifyReply, path: string, model?: string) => {
    const fault = state.faults.take({ model, path }, reply);
    if (fault?.latency_ms) await new Promise((r) => setTimeout(r, fault.latency_ms));
    if (!fault?.status) return false;
    await arkError(
      reply,
      fault.status,
      fault.status === 429 ? 'RateLimitExceeded' : 'InternalServiceError',
      fault.message ?? `Simulated error ${fault.status}.`,
    );
    return true;
  };

  app.post(ARK_TASKS_PATH, async (req, reply) => {
    const body = obj(req.body);
    const model = typeof body.model === 'string' ? body.model : '';
    if (await faulted(reply, ARK_TASKS_PATH, model)) return reply;
    const content = Array.isArray(body.content) ? (body.content as Json[]) : [];
    const text = content.find((c) => c.type === 'text')?.text;
    if (typeof text !== 'string' || !text) return arkError(reply, 400, 'InvalidParameter', 'content must hold a text item');
    const seed = typeof body.seed === 'number' && body.seed >= 0 ? body.seed : 10;
    const task: ArkTask = {
      id: `cgt-${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}-${randomBytes(3).toString('hex')}`,
      model,
      prompt: text,
      duration: Number(body.duration ?? 5),
      resolution: String(body.resolution ?? '720p'),
      ratio: String(body.ratio ?? '16:9'),
      seed,
      polls: 0,
      created: Math.floor(Date.now() / 1000),
      ...taskScript(text),
    };
    tasks.set(task.id, task);
    dropOldest(tasks, MAX_TASKS);
    return { id: task.id };
  });

  app.get<{ Params: { id: string } }>(`${ARK_TASKS_PATH}/:id`, async (req, reply) => {
    if (await faulted(reply, `${ARK_TASKS_PATH}/`)) return reply;
    const task = tasks.get(req.params.id);
    if (!task) return arkError(reply, 404, 'ResourceNotFound', 'The specified task is not found.');
    task.polls++;
    const end = { SUCCEEDED: 'succeeded', FAILED: 'failed', CANCELED: 'cancelled' }[task.outcome];
    const status = task.polls > task.pollsToEnd ? end : task.polls === 1 ? 'queued' : 'running';
    return {
      id: task.id,
      model: task.model,
      status,
      content: status === 'succeeded' ? { video_url: `${req.protocol}://${req.host}${VIDEO_PREFIX}${task.id}.mp4` } : null,
      seed: task.seed,
      resolution: task.resolution,
      ratio: task.ratio,
      duration: task.duration,
      framespersecond: 24,
      usage: status === 'succeeded' ? { completion_tokens: 108_900, total_tokens: 108_900 } : null,
      error: status === 'failed' ? { code: 'OutputVideoSensitiveContentDetected', message: 'Generation failed (simulated).' } : null,
      created_at: task.created,
      updated_at: Math.floor(Date.now() / 1000),
    };
  });

  app.get<{ Params: { file: string } }>(`${VIDEO_PREFIX}:file`, async (req, reply) => {
    const task = tasks.get(req.params.file.replace(/\.mp4$/, ''));
    if (!task) return reply.code(404).send('not found');
    return reply.type('video/mp4').send(tinyMp4(task.duration, task.seed));
  });
}
