/**
 * The video task lifecycle: a submission is stored, sent upstream (the runner: failover between
 * channels) and polled until it ends; the end settles the hold once — charged with the seconds at the
 * resolution on success, released on failure, cancellation or timeout — keeps the MP4 in the object
 * store, publishes `video.task.updated` on every transition and hands the record to the webhooks.
 */
import { randomUUID } from 'node:crypto';
import {
  errors,
  GatewayError,
  isHttpOrigin,
  MAX_RECENT_VIDEO_TASKS,
  TOPICS,
  VIDEO_TASK_TIMEOUT_SECONDS,
  type BillingPort,
  type CatalogPort,
  type Channel,
  type EndpointCall,
  type EndpointPort,
  type UsageSink,
  type VideoGenerationRequest,
  type VideoTask,
  type VideoTaskStatus,
} from '@unigate/contracts';
import { videoPolls, videoTaskDuration, videoTasksEnded, videoTasksSubmitted, type EventBus, type Logger } from '@unigate/platform';
import {
  readAll,
  safeFetch,
  videoUpstreamFor,
  type HttpClient,
  type PolledVideoTask,
  type ResultStore,
  type VideoSubmission,
} from '@unigate/providers';
import type { TaskResult, TaskRow, VideoTaskStore } from '../store/video-task-store';
import { nextPollDelay, type PollTiming } from './backoff';
import { taskRecord } from './task-record';

/** The largest finished video copied into the object store. */
const MAX_VIDEO_BYTES = 512 * 1024 * 1024;
const VIDEO_FETCH_TIMEOUT_MS = 5 * 60_000;

/** Where polls are scheduled (BullMQ in distributed mode, timers in standalone). */
export interface PollScheduler {
  schedule(task: Pick<TaskRow, 'id' | 'polls'>, delayMs: number): Promise<void>;
}

/** Where terminal records go when the task asked for a webhook. */
export interface WebhookScheduler {
  schedule(taskId: string): Promise<void>;
}

export interface VideoTasksDeps {
  store: VideoTaskStore;
  /** Where a poll finds its channel's API key: task rows do not keep it. */
  catalog: Pick<CatalogPort, 'resolve'>;
  /** The submission's upstream call, with failover (EndpointRunner over the video endpoints). */
  submitter: EndpointPort;
  http: HttpClient;
  usage: UsageSink;
  billing: Pick<BillingPort, 'releaseHold'>;
  bus: EventBus;
  results?: ResultStore;
  polls: PollScheduler;
  webhooks?: WebhookScheduler;
  timing: PollTiming;
  /** How long a task may run (default VIDEO_TASK_TIMEOUT_SECONDS). */
  timeoutMs?: number;
  logger: Logger;
}

export class VideoTasks {
  constructor(private readonly deps: VideoTasksDeps) {}

  async submit(call: EndpointCall): Promise<VideoTask> {
    const { store } = this.deps;
    const req = call.body as VideoGenerationRequest;
    const task = await store.insert({
      id: `vtask-${randomUUID()}`,
      account_id: call.account_id,
      key_id: call.key_id,
      request_id: call.request_id,
      hold_id: call.hold_id,
      model: call.route.model.id,
      model_info: call.route.model,
      request: req,
      webhook_url: req.webhook_url ?? null,
      origin: validOrigin(call.options.origin),
      deadline_at: new Date(Date.now() + (this.deps.timeoutMs ?? VIDEO_TASK_TIMEOUT_SECONDS * 1000)),
    });
    let submitted: VideoSubmission;
    try {
      submitted = (await this.deps.submitter.call(call)) as VideoSubmission;
    } catch (err) {
      // Nothing was started upstream: the edge gives the hold back with the error.
      await store.remove(task.id);
      throw err;
    }
    const row = await store.submitted(task.id, submitted.channel, submitted.upstream_id, submitted.native);
    videoTasksSubmitted.inc({ model: row.model });
    await this.published(row);
    await this.deps.polls.schedule(row, nextPollDelay(0, this.deps.timing));
    return taskRecord(row);
  }

  /** The account's task by either id kind; another account's is a 404. */
  async lookup(accountId: string, id: string): Promise<VideoTask> {
    const row = await this.deps.store.lookup(accountId, id);
    if (!row)
      throw new GatewayError({ status: 404, code: 'TaskNotFound', type: 'invalid_request_error', message: `No video task '${id}'.` });
    return taskRecord(row);
  }

  /** The account's newest tasks, newest first: at most `limit`, capped at MAX_RECENT_VIDEO_TASKS. */
  async recent(accountId: string, limit: number): Promise<VideoTask[]> {
    const capped = Math.min(Math.max(0, Math.floor(limit)), MAX_RECENT_VIDEO_TASKS);
    if (!capped) return [];
    return (await this.deps.store.recent(accountId, capped)).map(taskRecord);
  }

  /** One poll of a task: the delay before the next one, or null when it is over. */
  async poll(taskId: string): Promise<number | null> {
    const { store, timing } = this.deps;
    const task = await store.byId(taskId);
    if (!task || !task.channel || !task.upstream_id) return null;
    if (task.status !== 'queued' && task.status !== 'running') {
      // Ended but not settled (the process died in between): settle now.
      if (!task.settled_at) await this.settle(task);
      return null;
    }
    if (Date.now() > new Date(task.deadline_at).getTime()) {
      await this.end(task.id, 'failed', { error: { code: 'TaskTimeout', message: 'The video task did not finish in time.' } });
      return null;
    }
    const upstream = videoUpstreamFor(task.channel.protocol, this.deps.http);
    if (!upstream) throw errors.upstream(502, `no video upstream speaks '${task.channel.protocol}'`, false);
    let polled: PolledVideoTask;
    try {
      polled = await upstream.poll(await this.withKey(task), task.upstream_id, AbortSignal.timeout(60_000));
    } catch (err) {
      // The upstream is unwell, not the task: ask again later (longer after a 429).
      const throttled = GatewayError.is(err) && err.upstreamStatus === 429;
      videoPolls.inc({ model: task.model, outcome: 'error' });
      this.deps.logger.warn({ task: task.id, err: String(err) }, 'video poll failed; retrying');
      return nextPollDelay(task.polls + 1, timing, throttled);
    }
    const running = polled.status === 'queued' || polled.status === 'running';
    videoPolls.inc({ model: task.model, outcome: running ? 'running' : 'ended' });
    if (running) {
      const moved = await store.polled(task.id, polled.status, polled.native);
      if (moved?.changed) await this.published(moved.row);
      return moved ? nextPollDelay(moved.row.polls, timing) : null;
    }
    if (polled.status === 'succeeded') {
      const content = polled.video_url ? { video_url: await this.keep(task, polled.video_url) } : undefined;
      await this.end(task.id, 'succeeded', { content, usage: polled.usage ?? {}, seed: polled.seed ?? null, upstream: polled.native });
    } else {
      await this.end(task.id, polled.status, { error: polled.error, upstream: polled.native });
    }
    return null;
  }

  /**
   * The task's channel with its API key as the catalog has it now (so a rotated key is used at once).
   * A channel gone from the catalog is polled without a key: the upstream refuses, and the task ends
   * at its timeout with its hold released.
   */
  private async withKey(task: TaskRow): Promise<Channel> {
    const stored = task.channel!;
    const route = await this.deps.catalog.resolve(task.model).catch(() => undefined);
    const current = route?.channels.find((c) => c.id === stored.id);
    if (!current) this.deps.logger.warn({ task: task.id, channel: stored.id }, "the video task's channel is no longer in the catalog");
    return { ...stored, api_key: current?.api_key ?? '' };
  }

  /** Moves an open task to its end; only the caller that wins the compare-and-set settles. */
  private async end(id: string, status: VideoTaskStatus, result: TaskResult): Promise<void> {
    const row = await this.deps.store.finish(id, status, result);
    if (!row) return;
    videoTasksEnded.inc({ model: row.model, status: row.status });
    videoTaskDuration.observe(
      { model: row.model, status: row.status },
      Math.max(0, Date.now() - new Date(row.created_at).getTime()) / 1000,
    );
    await this.published(row);
    await this.settle(row);
  }

  /**
   * The money first, then the claim: a process killed in between settles again on the next poll or
   * sweep, and billing takes a usage event or a release once per request (idempotent). The claim
   * only makes the webhook go out once.
   */
  private async settle(row: TaskRow): Promise<void> {
    if (row.hold_id) {
      if (row.status === 'succeeded') await this.deps.usage.record(usageCall(row), billedUsage(row));
      else await this.deps.billing.releaseHold(row.account_id, row.hold_id);
    }
    if (!(await this.deps.store.claimSettlement(row.id))) return;
    if (row.webhook_url) await this.deps.webhooks?.schedule(row.id);
  }

  /** The finished MP4 copied into the object store: our link outlives the upstream's. */
  private async keep(task: TaskRow, url: string): Promise<string> {
    if (!this.deps.results) return url;
    const fetched = await safeFetch(url, {
      trustedOrigins: [new URL(task.channel!.base_url).origin],
      signal: AbortSignal.timeout(VIDEO_FETCH_TIMEOUT_MS),
      maxBytes: MAX_VIDEO_BYTES,
      timeoutMs: VIDEO_FETCH_TIMEOUT_MS,
    });
    return this.deps.results.keep(await readAll(fetched.body), 'video/mp4');
  }

  private async published(row: TaskRow): Promise<void> {
    const event = {
      task_id: row.id,
      account_id: row.account_id,
      status: row.status,
      model: row.model,
      upstream_id: row.upstream_id,
      at: new Date().toISOString(),
    };
    await this.deps.bus
      .publish(TOPICS.videoTaskUpdated, row.account_id, event)
      .catch((err: unknown) => this.deps.logger.warn({ event, err: String(err) }, 'video.task.updated could not be published'));
  }
}

/** The seconds billed: what the upstream says it made, never more than was held for. */
function billedUsage(row: TaskRow) {
  const requested = row.request.duration ?? row.model_info.video?.default_duration_seconds ?? 5;
  const made = Number(row.result.usage?.output_video_duration ?? row.result.usage?.duration ?? requested);
  const seconds = Number.isFinite(made) && made > 0 ? Math.min(made, requested) : requested;
  return { video_seconds: seconds, video_resolution: row.request.resolution ?? row.model_info.video?.default_resolution ?? '720p' };
}

function usageCall(row: TaskRow): Omit<EndpointCall, 'body' | 'files'> {
  return {
    endpoint: 'videos.generations',
    request_id: row.request_id,
    account_id: row.account_id,
    key_id: row.key_id,
    hold_id: row.hold_id,
    route: { model: row.model_info, channels: [] },
    options: {},
  };
}

/** The submission's origin option when it is an http(s) origin; anything else is not kept. */
function validOrigin(value: string | undefined): string | null {
  return value && isHttpOrigin(value) ? value : null;
}
