/**
 * DashScope async video tasks (reference/dashscope.md): submit with `X-DashScope-Async: enable`, then
 * poll /api/v1/tasks/{id} through PENDING → RUNNING → SUCCEEDED with a link to a tiny real MP4.
 * Timing and failures are set in the prompt, so tests stay fast and deterministic:
 * `[sim:polls=N]` (polls before the end, default 2), `[sim:fail]` (the task FAILS),
 * `[sim:cancel]` (CANCELED). The control endpoint's faults apply to both paths.
 */
import { randomUUID } from 'node:crypto';
import { dropOldest } from '@unigate/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { tinyMp4 } from '../shared/mp4';
import type { SimState } from '../sim-state';
import { dashscopeError } from './dashscope-routes';

export const VIDEO_SYNTHESIS_PATH = '/api/v1/services/aigc/video-generation/video-synthesis';
export const TASKS_PATH = '/api/v1/tasks/';
const VIDEO_PREFIX = '/_files/videos/';
/** Tasks kept (oldest dropped first). */
const MAX_TASKS = 2000;

interface SimTask {
  id: string;
  model: string;
  prompt: string;
  duration: number;
  polls: number;
  pollsToEnd: number;
  outcome: 'SUCCEEDED' | 'FAILED' | 'CANCELED';
  submitted: string;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const stamp = () => new Date().toISOString().replace('T', ' ').replace('Z', '');

/** How a simulated task behaves, read from its prompt. */
export function taskScript(prompt: string): Pick<SimTask, 'pollsToEnd' | 'outcome'> {
  const polls = /\[sim:polls=(\d+)\]/.exec(prompt);
  return {
    pollsToEnd: polls ? Number(polls[1]) : 2,
    outcome: prompt.includes('[sim:fail]') ? 'FAILED' : prompt.includes('[sim:cancel]') ? 'CANCELED' : 'SUCCEEDED',
  };
}

export async function dashscopeVideoRoutes(app: FastifyInstance, opts: { state: SimState }): Promise<void> {
  const { state } = opts;
  const tasks = new Map<string, SimTask>();

  const faulted = async (req: FastifyRequest, reply: FastifyReply, path: string, model?: string) => {
    const fault = state.faults.take({ model, path }, reply);
    if (fault?.latency_ms) await new Promise((r) => setTimeout(r, fault.latency_ms));
    if (!fault?.status) return false;
    await dashscopeError(reply, fault.status, fault.message);
    return true;
  };

  app.post(VIDEO_SYNTHESIS_PATH, async (req, reply) => {
    const body = obj(req.body);
    const model = typeof body.model === 'string' ? body.model : '';
    if (await faulted(req, reply, VIDEO_SYNTHESIS_PATH, model)) return reply;
    if (req.headers['x-dashscope-async'] !== 'enable')
      return dashscopeError(reply, 403, 'current user api does not support synchronous calls', 'AccessDenied');
    const prompt = obj(body.input).prompt;
    if (!model.includes('2v') || typeof prompt !== 'string' || !prompt) return dashscopeError(reply, 400, 'input.prompt is required');
    const duration = Number(obj(body.parameters).duration ?? 5);
    const task: SimTask = { id: randomUUID(), model, prompt, duration, polls: 0, submitted: stamp(), ...taskScript(prompt) };
    tasks.set(task.id, task);
    dropOldest(tasks, MAX_TASKS);
    return { output: { task_id: task.id, task_status: 'PENDING' }, request_id: randomUUID() };
  });

  app.get<{ Params: { id: string } }>(`${TASKS_PATH}:id`, async (req, reply) => {
    if (await faulted(req, reply, TASKS_PATH)) return reply;
    const task = tasks.get(req.params.id);
    if (!task) return { request_id: randomUUID(), output: { task_id: req.params.id, task_status: 'UNKNOWN' } };
    task.polls++;
    const status = task.polls > task.pollsToEnd ? task.outcome : task.polls === 1 ? 'PENDING' : 'RUNNING';
    const output: Json = { task_id: task.id, task_status: status, submit_time: task.submitted, orig_prompt: task.prompt };
    if (status === 'SUCCEEDED') {
      output.end_time = stamp();
      output.video_url = `${req.protocol}://${req.host}${VIDEO_PREFIX}${task.id}.mp4?Expires=${Date.now() + 86_400_000}`;
    }
    if (status === 'FAILED') Object.assign(output, { code: 'InternalError.Algo', message: 'Video generation failed (simulated).' });
    return {
      request_id: randomUUID(),
      output,
      ...(status === 'SUCCEEDED' && { usage: { duration: task.duration, output_video_duration: task.duration, video_count: 1, SR: 720 } }),
    };
  });

  app.get<{ Params: { file: string } }>(`${VIDEO_PREFIX}:file`, async (req, reply) => {
    const task = tasks.get(req.params.file.replace(/\.mp4$/, ''));
    if (!task) return reply.code(404).send('not found');
    return reply.type('video/mp4').send(tinyMp4(task.duration, task.polls));
  });
}
