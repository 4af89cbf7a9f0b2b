/** Prometheus metrics. One registry per process; every app serves it at /metrics. */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const metricsRegistry = new Registry();
/**
 * How often the event-loop lag histogram (`nodejs_eventloop_lag_*`) samples the loop. prom-client's
 * 10 ms default is a timer that wakes every process 100 times a second, idle or not: measured on a
 * distributed stack at rest, ~110 wake-ups a second per service, 3–4 ms of CPU a second each. At
 * 100 ms a stall of 100 ms or more is always caught and a shorter one in proportion to its length.
 */
export const EVENT_LOOP_SAMPLE_MS = 100;
collectDefaultMetrics({ register: metricsRegistry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });

/** prom-client's gauges read from Node's loop-delay histogram (`nodejs_eventloop_lag_seconds` is timed apart). */
const SAMPLED_LAG_GAUGES = ['min', 'max', 'mean', 'p50', 'p90', 'p99'].map((stat) => `nodejs_eventloop_lag_${stat}_seconds`);

/**
 * Node's `monitorEventLoopDelay` records the whole interval between two of its samples, not the delay
 * beyond it, so prom-client reports an idle loop's lag as the sampling interval itself: 0.1 s here (it
 * is 0.01 s at prom-client's default, where it hides more easily). An operator alerting on these
 * would see a 100 ms lag on every process at rest. Each is reported less the interval, at least 0; the
 * standard deviation is left as it is (an offset does not move it).
 */
function subtractSampleInterval(registry: Registry, sampleMs: number): void {
  for (const name of SAMPLED_LAG_GAUGES) {
    const gauge = registry.getSingleMetric(name) as Gauge | undefined;
    if (!gauge) throw new Error(`prom-client registered no ${name}: the event-loop lag correction needs updating`);
    const get = gauge.get.bind(gauge);
    gauge.get = async () => {
      const metric = await get();
      return { ...metric, values: metric.values.map((v) => ({ ...v, value: Math.max(0, v.value - sampleMs / 1000) })) };
    };
  }
}
subtractSampleInterval(metricsRegistry, EVENT_LOOP_SAMPLE_MS);

export const httpRequests = new Counter({
  name: 'unigate_http_requests_total',
  help: 'HTTP requests by route and status',
  labelNames: ['route', 'status'] as const,
  registers: [metricsRegistry],
});

export const httpDuration = new Histogram({
  name: 'unigate_http_request_duration_seconds',
  help: 'HTTP request duration (to the last byte for streams)',
  labelNames: ['route'] as const,
  // Up to 10 minutes: an upstream may take that long to an answer's headers, and long generations
  // stream for minutes; with 60 s the last bucket, every one of them was only "more than a minute".
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
  registers: [metricsRegistry],
});

/**
 * The gateway's own time per answered request, as `x-unigate-overhead-ms` reports it (the request's
 * time less its waits on upstreams; a stream's up to its headers): what the gateway adds, in buckets
 * from 0.1 ms, where the request duration's start at 5 ms.
 */
export const overheadDuration = new Histogram({
  name: 'unigate_overhead_seconds',
  help: "The gateway's own time per answered request (x-unigate-overhead-ms): its time less its waits on upstreams",
  labelNames: ['route'] as const,
  buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
  registers: [metricsRegistry],
});

/**
 * How long an upstream took to answer an attempt that succeeded: to its whole answer, or to a stream's
 * first event (time to first token). By model and channel, so a slow vendor or channel shows apart.
 */
export const upstreamDuration = new Histogram({
  name: 'unigate_upstream_response_seconds',
  help: "Successful upstream attempts by model and channel: from sending to the whole answer, or to a stream's first event",
  labelNames: ['model', 'channel'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
  registers: [metricsRegistry],
});

export const tokensTotal = new Counter({
  name: 'unigate_tokens_total',
  help: 'Tokens metered, by model and direction (input, cached_input, cache_write_input, cache_write_1h_input, output)',
  labelNames: ['model', 'direction'] as const,
  registers: [metricsRegistry],
});

export const costMicrosTotal = new Counter({
  name: 'unigate_cost_micros_total',
  help: 'Cost charged in micro-USD, by model',
  labelNames: ['model'] as const,
  registers: [metricsRegistry],
});

export const upstreamRequests = new Counter({
  name: 'unigate_upstream_requests_total',
  help: 'Upstream calls by model, channel and outcome',
  labelNames: ['model', 'channel', 'outcome'] as const,
  registers: [metricsRegistry],
});

export const rejections = new Counter({
  name: 'unigate_rejections_total',
  help: 'Requests rejected before reaching an upstream, by model and reason (402, 429, 400, 401, 403, 404)',
  labelNames: ['model', 'reason'] as const,
  registers: [metricsRegistry],
});

/**
 * Events of a partition that a consumer group has yet to handle in this process, as of its last
 * handled fetch (a lingering subscription's also as of its last hand-over): the partition's end then,
 * minus the next event to handle. Events fetched and gathered but not handed over count. It stays at
 * its last value while nothing new arrives, and a rebalance drops this process's series.
 */
export const kafkaConsumerLag = new Gauge({
  name: 'unigate_kafka_consumer_lag',
  help: 'Events a Kafka consumer group has yet to handle on a partition, as of its last handled fetch in this process',
  labelNames: ['group', 'topic', 'partition'] as const,
  registers: [metricsRegistry],
});

/**
 * Video tasks, counted by the video service that moved them: submitted once accepted upstream, ended
 * once by the process that won the task's end (a compare-and-set), by model and final status
 * (`succeeded`, `failed`, `cancelled`; a task past its deadline is `failed`). Submitted less ended
 * is what is running.
 */
export const videoTasksSubmitted = new Counter({
  name: 'unigate_video_tasks_submitted_total',
  help: 'Video tasks accepted by an upstream, by model',
  labelNames: ['model'] as const,
  registers: [metricsRegistry],
});

export const videoTasksEnded = new Counter({
  name: 'unigate_video_tasks_ended_total',
  help: 'Video tasks that ended, by model and final status',
  labelNames: ['model', 'status'] as const,
  registers: [metricsRegistry],
});

/** From submission to the end, by model and final status: a vendor that queues for long shows here. */
export const videoTaskDuration = new Histogram({
  name: 'unigate_video_task_duration_seconds',
  help: 'Video tasks from submission to their end, by model and final status',
  labelNames: ['model', 'status'] as const,
  buckets: [10, 30, 60, 120, 300, 600, 1_200, 1_800, 3_600, 7_200, 21_600, 86_400],
  registers: [metricsRegistry],
});

/** Polls of an upstream video task by outcome: `running` (ask again), `ended`, `error` (the upstream did not answer well). */
export const videoPolls = new Counter({
  name: 'unigate_video_polls_total',
  help: 'Polls of upstream video tasks, by model and outcome (running, ended, error)',
  labelNames: ['model', 'outcome'] as const,
  registers: [metricsRegistry],
});

/**
 * Webhook delivery attempts by outcome: `delivered` (2xx), `rejected` (another status), `failed` (no
 * answer: refused, unreachable, timed out, a private address), and `gave_up` once a task's last
 * attempt failed (its receiver never gets that task's record).
 */
export const webhookDeliveries = new Counter({
  name: 'unigate_webhook_deliveries_total',
  help: 'Video webhook delivery attempts by outcome (delivered, rejected, failed), and tasks given up on (gave_up)',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});
