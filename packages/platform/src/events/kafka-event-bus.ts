/**
 * EventBus over Kafka (kafkajs). At-least-once: an offset is committed only after the handler
 * returned; a throwing handler pauses its partition, seeks back to the failed message and resumes
 * after a backoff, so the message is redelivered (here or, after a rebalance, on another member) and
 * other partitions keep flowing meanwhile. Consumers must therefore be idempotent.
 *
 * subscribeBatch hands a consumer consecutive messages of one partition together (what one fetch
 * returned, in slices of at most `maxBatch`), so it can settle them in one database transaction; the
 * same contract holds per slice: committed after the handler returned, redelivered whole on a throw.
 * With `lingerMs`, what a consumer behind its partition fetches is gathered across fetches first
 * (SubscribeBatchOptions.lingerMs), and the subscription commits offsets itself after each
 * hand-over: kafkajs's auto-commit would commit what was fetched but not yet handed over.
 * An own group (SubscribeOptions.ownGroup) commits nothing: at least once within a membership, and
 * what came before a membership is the subscriber's to make up for (its onJoin).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { Consumer, EachBatchPayload, IHeaders, Kafka, KafkaMessage, LogEntry, Producer } from 'kafkajs';
import type { Logger } from 'pino';
import { z } from 'zod';
import { readEnv, wholeNumber } from '../env';
import { kafkaConsumerLag } from '../observability/metrics';
import { backoffMs, type BackoffOptions } from './backoff';
import type { EventBus, EventHandler, EventMeta, OwnGroup, SubscribeOptions } from './event-bus';
import { SerialLane } from '../serial-lane';
import { fixKafkajsIdleLoop } from './kafkajs-idle-loop';
import { kafkaSecurity } from './kafka-security';
import { runInTraceContext, withTraceHeaders } from './trace-headers';

/**
 * kafkajs (143 modules) loads with the first bus, not with this package, whose index standalone also
 * loads without ever making a bus; the idle-loop fix is applied to it then.
 */
function loadKafkajs(): typeof import('kafkajs') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const kafkajs = require('kafkajs') as typeof import('kafkajs');
  fixKafkajsIdleLoop();
  return kafkajs;
}

export interface KafkaEventBusOptions {
  brokers: string[];
  clientId: string;
  /** Prepended (with a dot) to every topic and consumer group: isolates test runs and tenants. */
  topicPrefix?: string;
  logger: Logger;
  /** Consumer group session timeout; 6 s keeps re-joins after a crash short. */
  sessionTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  /** The longest a fetch waits for data (default: kafkaFetchMaxWaitMs()). */
  maxWaitTimeMs?: number;
  retryBackoff?: BackoffOptions;
  /**
   * Publish in batches, at most one produce request per this many ms: a message on a bus that sent
   * nothing in the last `lingerMs` goes at once, and the messages that follow within that window share
   * the produce request sent when it ends (one round trip, one acknowledgement for all). No message
   * waits longer than this. 0 (default) sends each at once.
   */
  lingerMs?: number;
}

interface Pending {
  topic: string;
  message: { key: string; value: string; headers: IHeaders };
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * How long a consumer's fetch may wait for data: `KAFKA_FETCH_MAX_WAIT_MS`, 1,000 ms by default. A real
 * broker answers a waiting fetch as soon as data arrives, so this bounds only how often an idle
 * consumer asks again (each ask costs CPU; at 100 ms the idle edge, with two consumers, used 7 % of a
 * core against 2.6 % at 1,000). librdkafka's mock broker, which the tests run on, never answers early: there a
 * message waits up to this long, and the test harness sets 100.
 */
export const DEFAULT_FETCH_MAX_WAIT_MS = 1000;

const fetchWaitEnv = z.object({
  KAFKA_FETCH_MAX_WAIT_MS: wholeNumber(1, 30_000, 'KAFKA_FETCH_MAX_WAIT_MS must be a whole number of milliseconds from 1 to 30000'),
});

export function kafkaFetchMaxWaitMs(env: NodeJS.ProcessEnv = process.env): number {
  return readEnv(fetchWaitEnv, env).KAFKA_FETCH_MAX_WAIT_MS ?? DEFAULT_FETCH_MAX_WAIT_MS;
}

/** Pacing of new consumers after kafkajs stopped one (a refusal that may last, so not hammered). */
const CONSUMER_RESTART_BACKOFF: BackoffOptions = { initialMs: 1000, maxMs: 30_000 };

/** Messages per produce request at most, when lingering. */
const MAX_LINGER_BATCH = 1000;

export interface BusEvent {
  payload: unknown;
  meta: EventMeta;
}

/** Receives consecutive events of one partition, in order; a throw means "none processed, redeliver all". */
export type BatchEventHandler = (events: BusEvent[]) => Promise<void>;

export interface SubscribeBatchOptions {
  /** Most events handed over at once (default 500). */
  maxBatch?: number;
  /**
   * After handing over events that reached the end of their partition (fewer than `maxBatch`), wait
   * this long before the next fetch, so that it finds what arrived meanwhile. A fetch answers as soon
   * as there is anything, so at a steady moderate rate each event came alone: one fetch, one offset
   * commit and one handler call (a transaction) per event. A broker may answer with less than it has
   * (a real one stops at the fetch's byte limits; librdkafka's mock sends one produced batch per
   * fetch), so a consumer behind its partition fetches again at once and gathers what the fetches
   * bring, handing it over once it caught up or holds `maxBatch` events; a full hand-over is followed
   * at once. No event waits for its hand-over longer than this after it was fetched (then for the
   * handlers before it).
   * 0 (default): each fetch is handed over as it comes, and the next follows at once.
   */
  lingerMs?: number;
}

/** A lingering subscription: what gather and handOver need of it. */
interface Lingering {
  topic: string;
  handler: BatchEventHandler;
  maxBatch: number;
  lingerMs: number;
  /** Its hand-overs, one at a time across its partitions. */
  handlers: SerialLane;
}

/** A lingering subscription's partition: what was fetched and not yet handed over. */
interface Gathering {
  messages: KafkaMessage[];
  /** The last offset taken (gathered or handed over): fetched again (after a rebalance), it is skipped. */
  last?: bigint;
  /** After a failed hand-over: where its seek goes back to. Batches fetched before the seek are skipped. */
  resumeAt?: bigint;
  /** Hands the gathered events over `lingerMs` after the first was fetched, if nothing did sooner. */
  timer?: NodeJS.Timeout;
  /** The partition's end as of the last fetch: what the lag gauge counts from after a hand-over. */
  highWatermark?: bigint;
}

/**
 * Partitions a lingering subscription works on at once. kafkajs hands a fetch's batches, one per
 * partition, to this many workers and fetches again once all are done: with one worker the waits
 * after each batch added up (a member of 12 partitions waited 12 times per fetch). Their handlers
 * still run one at a time.
 */
const LINGERING_PARTITIONS = 32;

const tracer = trace.getTracer('unigate-event-bus');

interface Subscription {
  topics: string[];
  groupId: string;
  eachBatch: (sub: Subscription, p: EachBatchPayload) => Promise<void>;
  /** kafkajs's partitionsConsumedConcurrently. */
  partitionsAtOnce: number;
  consumer: Consumer;
  joined: boolean;
  crashed: boolean;
  /** Crashes kafkajs gave up on since the last join, for the restart backoff. */
  giveUps: number;
  restartTimer?: NodeJS.Timeout;
  /** Pending resume timers of partitions paused after a handler failure. */
  timers: Set<NodeJS.Timeout>;
  /** `kafkaConsumerLag` series this subscription set (a rebalance drops them: its partitions may move). */
  lagSeries: Map<string, { group: string; topic: string; partition: string }>;
  /** `topic:partition` → the failing offset and how often it failed, for the backoff. */
  failures: Map<string, { offset: string; attempts: number }>;
  /**
   * A lingering subscription's partitions, by partition. Such a subscription commits offsets itself
   * after each hand-over (kafkajs's auto-commit off).
   */
  gathering?: Map<number, Gathering>;
  /** Hands over what a lingering subscription gathered (on close). */
  handOverAll?: () => Promise<void>;
  /** A group of this process alone (SubscribeOptions): nothing committed, each membership from the end. */
  ownGroup?: OwnGroup;
  /** Set by a join of an own group until its first fetch, which fixes where the membership starts. */
  startPending?: boolean;
}

export class KafkaEventBus implements EventBus {
  private readonly kafka: Kafka;
  private readonly logLevel: typeof import('kafkajs').logLevel;
  private readonly producer: Producer;
  private readonly subscriptions: Subscription[] = [];
  private producerConnected = false;
  private connecting?: Promise<void>;
  private closed = false;
  private pending: Pending[] = [];
  /** Set while a linger window is open: a produce request went out less than `lingerMs` ago. */
  private lingerTimer?: NodeJS.Timeout;
  private inFlight = new Set<Promise<void>>();
  /** Aborted by close(): cuts lingering subscriptions' waits short. */
  private readonly closing = new AbortController();

  private readonly maxWaitTimeMs: number;

  constructor(private readonly opts: KafkaEventBusOptions) {
    // Read at construction, so a bad value stops the service at start rather than at its first subscribe.
    this.maxWaitTimeMs = opts.maxWaitTimeMs ?? kafkaFetchMaxWaitMs();
    const { Kafka, logLevel, Partitioners } = loadKafkajs();
    this.logLevel = logLevel;
    this.kafka = new Kafka({
      clientId: opts.clientId,
      brokers: opts.brokers,
      ...kafkaSecurity(),
      logLevel: logLevel.WARN,
      logCreator: () => (entry: LogEntry) => this.forwardLog(entry),
    });
    this.producer = this.kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner, allowAutoTopicCreation: true });
    this.producer.on(this.producer.events.CONNECT, () => (this.producerConnected = true));
    this.producer.on(this.producer.events.DISCONNECT, () => (this.producerConnected = false));
  }

  /** The physical topic / group name for a logical one. */
  name(logical: string): string {
    return this.opts.topicPrefix ? `${this.opts.topicPrefix}.${logical}` : logical;
  }

  /** Connect the producer now (otherwise the first publish does), so startup fails fast. */
  connect(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('KafkaEventBus is closed'));
    this.connecting ??= this.producer.connect().catch((err: unknown) => {
      this.connecting = undefined;
      throw err;
    });
    return this.connecting;
  }

  /** Readiness: the producer is connected and every consumer has joined its group and not crashed. */
  isReady(): boolean {
    return !this.closed && this.producerConnected && this.subscriptions.every((s) => s.joined && !s.crashed);
  }

  /** The same as a ReadinessCheck: resolves when ready, otherwise rejects saying why. */
  async checkReady(): Promise<void> {
    if (this.closed) throw new Error('kafka: closed');
    // A publish-only process (chat) connects lazily; readiness is where it should connect first.
    if (!this.producerConnected)
      await this.connect().catch((err: unknown) => Promise.reject(new Error(`kafka: producer not connected (${String(err)})`)));
    if (!this.producerConnected) throw new Error('kafka: producer not connected');
    const lagging = this.subscriptions.filter((s) => !s.joined || s.crashed).length;
    if (lagging > 0) throw new Error(`kafka: ${lagging} consumer(s) not in their group`);
  }

  /** Resolves once every in-sync replica acknowledged the message (acks = all). */
  async publish(topic: string, key: string, payload: object, headers?: Record<string, string>): Promise<void> {
    const message = { key, value: JSON.stringify(payload), headers: withTraceHeaders(headers) };
    if (!this.opts.lingerMs) {
      await this.connect();
      await this.producer.send({ topic: this.name(topic), acks: -1, messages: [message] });
      return;
    }
    if (this.closed) throw new Error('KafkaEventBus is closed');
    return new Promise((resolve, reject) => {
      this.pending.push({ topic: this.name(topic), message, resolve, reject });
      // Idle (no window open): waiting would only delay this message; those that follow it batch.
      if (this.pending.length >= MAX_LINGER_BATCH || !this.lingerTimer) this.flush();
    });
  }

  /** Sends what waits to be published, in one produce request per flush, and opens a linger window. */
  private flush(): void {
    clearTimeout(this.lingerTimer);
    this.lingerTimer = undefined;
    const batch = this.sendPending();
    // A window opens only behind a produce request: a window that ends with nothing waiting closes.
    if (batch && !this.closed) this.lingerTimer = setTimeout(() => this.flush(), this.opts.lingerMs);
  }

  /** One produce request for every message waiting; false when none was. */
  private sendPending(): boolean {
    const batch = this.pending.splice(0);
    if (batch.length === 0) return false;
    const byTopic = new Map<string, Pending['message'][]>();
    for (const p of batch) {
      const messages = byTopic.get(p.topic);
      if (messages) messages.push(p.message);
      else byTopic.set(p.topic, [p.message]);
    }
    const sent = this.connect()
      .then(() => this.producer.sendBatch({ acks: -1, topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })) }))
      .then(
        () => batch.forEach((p) => p.resolve()),
        (err: unknown) => batch.forEach((p) => p.reject(err)),
      );
    this.inFlight.add(sent);
    void sent.finally(() => this.inFlight.delete(sent));
    return true;
  }

  async subscribe(topic: string, groupId: string, handler: EventHandler): Promise<void> {
    await this.subscribeAll(groupId, { [topic]: handler });
  }

  /** One consumer (one group member, one set of broker connections and fetches) for every topic in `handlers`. */
  async subscribeAll(groupId: string, handlers: Record<string, EventHandler>, options: SubscribeOptions = {}): Promise<void> {
    const byPhysical = new Map(Object.entries(handlers).map(([topic, handler]) => [this.name(topic), { topic, handler }]));
    await this.consume(
      [...byPhysical.keys()],
      groupId,
      (sub, p) => {
        const { topic, handler } = byPhysical.get(p.batch.topic)!;
        return this.processBatch(sub, topic, handler, p);
      },
      { ownGroup: options.ownGroup },
    );
  }

  /** Like subscribe, but the handler gets up to `maxBatch` consecutive events of a partition at once. */
  async subscribeBatch(topic: string, groupId: string, handler: BatchEventHandler, opts: SubscribeBatchOptions = {}): Promise<void> {
    const maxBatch = Math.max(1, opts.maxBatch ?? 500);
    const lingerMs = opts.lingerMs ?? 0;
    const handlers = new SerialLane();
    if (lingerMs <= 0) {
      await this.consume([this.name(topic)], groupId, async (sub, p) => {
        await handlers.run(() => this.processSlices(sub, topic, handler, maxBatch, p));
      });
      return;
    }
    const lingering = { topic, handler, maxBatch, lingerMs, handlers };
    const eachBatch = async (sub: Subscription, p: EachBatchPayload) => {
      const caughtUp = await handlers.run(() => this.gather(sub, lingering, p));
      // Outside the lane: the waits of a fetch's partitions overlap. Cut short when the bus closes.
      if (caughtUp && p.isRunning() && !p.isStale())
        await sleep(lingerMs, undefined, { signal: this.closing.signal }).catch(() => undefined);
    };
    await this.consume([this.name(topic)], groupId, eachBatch, {
      partitionsAtOnce: LINGERING_PARTITIONS,
      lingering: (sub) => {
        sub.gathering = new Map();
        sub.handOverAll = () =>
          handlers.run(async () => {
            for (const [partition, g] of sub.gathering!) await this.handOver(sub, lingering, partition, g);
          });
      },
    });
  }

  private async consume(
    topics: string[],
    groupId: string,
    eachBatch: (sub: Subscription, p: EachBatchPayload) => Promise<void>,
    opts: { partitionsAtOnce?: number; lingering?: (sub: Subscription) => void; ownGroup?: OwnGroup } = {},
  ): Promise<void> {
    if (this.closed) throw new Error('KafkaEventBus is closed');
    const sub: Subscription = {
      topics,
      groupId,
      eachBatch,
      partitionsAtOnce: opts.partitionsAtOnce ?? 1,
      consumer: this.newConsumer(groupId),
      joined: false,
      crashed: false,
      giveUps: 0,
      timers: new Set(),
      failures: new Map(),
      lagSeries: new Map(),
      ownGroup: opts.ownGroup,
    };
    opts.lingering?.(sub);
    this.subscriptions.push(sub);
    await this.runConsumer(sub);
  }

  private newConsumer(groupId: string): Consumer {
    return this.kafka.consumer({
      groupId: this.name(groupId),
      sessionTimeout: this.opts.sessionTimeoutMs ?? 6000,
      heartbeatInterval: this.opts.heartbeatIntervalMs ?? 1000,
      maxWaitTimeInMs: this.maxWaitTimeMs,
      allowAutoTopicCreation: true,
    });
  }

  /** Joins `sub.consumer` to its group and runs it until closed or crashed. */
  private async runConsumer(sub: Subscription): Promise<void> {
    const { consumer } = sub;
    consumer.on(consumer.events.GROUP_JOIN, () => {
      sub.joined = true;
      sub.crashed = false;
      sub.giveUps = 0;
      for (const labels of sub.lagSeries.values()) kafkaConsumerLag.remove(labels);
      sub.lagSeries.clear();
      // A seek made before the rebalance is gone with it: fetching starts again from the committed offset.
      for (const g of sub.gathering?.values() ?? []) g.resumeAt = undefined;
      if (sub.ownGroup) sub.startPending = true;
    });
    // An own group's membership starts where its first fetch after the join resolved the offsets.
    if (sub.ownGroup)
      consumer.on(consumer.events.FETCH, () => {
        if (!sub.startPending) return;
        sub.startPending = false;
        try {
          sub.ownGroup!.onJoin();
        } catch (err) {
          this.opts.logger.error({ err, group: sub.groupId }, 'refreshing after a join of its own group failed');
        }
      });
    consumer.on(consumer.events.CRASH, (e) => {
      const { error, restart } = e.payload;
      sub.crashed = !restart;
      this.opts.logger.error({ err: error, group: sub.groupId, topics: sub.topics, restart }, 'kafka consumer crashed');
      // kafkajs restarts a consumer only after a retriable error and stops it for good after any other
      // (librdkafka's mock answers a follower's late SyncGroup with INVALID_REQUEST; a real broker can
      // refuse a join for a while). A stopped consumer would leave its partitions' events unhandled until
      // the process restarts, so the bus starts a new one after a backoff.
      if (!restart) this.restartLater(sub);
    });

    await consumer.connect();
    // A new group starts at the beginning: events published before it first joined are not lost. An own
    // group commits nothing and starts at the end every time (its onJoin makes up for what came before).
    await consumer.subscribe({ topics: sub.topics, fromBeginning: !sub.ownGroup });
    await consumer.run({
      autoCommit: sub.gathering === undefined && !sub.ownGroup,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: sub.partitionsAtOnce,
      eachBatch: (payload) => this.handleBatch(sub, payload),
    });
  }

  /** `sub`'s handling of one fetched batch, then how far its partition is still ahead of it. */
  private async handleBatch(sub: Subscription, p: EachBatchPayload): Promise<void> {
    const { batch } = p;
    // The next event to handle: past what the handling resolved (a failed slice is retried later).
    let next = BigInt(batch.firstOffset() ?? batch.highWatermark);
    const resolveOffset = (offset: string) => {
      next = BigInt(offset) + 1n;
      p.resolveOffset(offset);
    };
    try {
      await sub.eachBatch(sub, { ...p, resolveOffset });
    } finally {
      // A lingering subscription resolves what it gathers before handing it over: until it was handed
      // over, or while a failed hand-over waits to be fetched again, it is still lag.
      const unsettled = this.unsettledFrom(sub.gathering?.get(batch.partition));
      if (unsettled !== undefined && unsettled < next) next = unsettled;
      this.setLag(sub, batch.topic, batch.partition, BigInt(batch.highWatermark) - next);
    }
  }

  /** The first event of a lingering subscription's partition that was taken and is not settled. */
  private unsettledFrom(g: Gathering | undefined): bigint | undefined {
    if (g?.messages.length) return BigInt(g.messages[0].offset);
    return g?.resumeAt;
  }

  /** `unigate_kafka_consumer_lag` of `sub` on a partition of `topic` (the name Kafka knows: prefixed, as its own tools show it). */
  private setLag(sub: Subscription, topic: string, partition: number, lag: bigint): void {
    const labels = { group: this.name(sub.groupId), topic, partition: String(partition) };
    sub.lagSeries.set(`${topic}:${partition}`, labels);
    kafkaConsumerLag.set(labels, Math.max(0, Number(lag)));
  }

  private restartLater(sub: Subscription): void {
    if (this.closed || sub.restartTimer) return;
    sub.giveUps++;
    const delayMs = backoffMs(sub.giveUps, CONSUMER_RESTART_BACKOFF);
    this.opts.logger.warn({ group: sub.groupId, topics: sub.topics, delayMs }, 'kafka consumer stopped; starting a new one');
    sub.restartTimer = setTimeout(() => {
      sub.restartTimer = undefined;
      if (this.closed) return;
      // kafkajs disconnected the crashed consumer before reporting the crash; a failed start backs off and tries again.
      sub.consumer = this.newConsumer(sub.groupId);
      this.runConsumer(sub).catch((err: unknown) => {
        if (this.closed) return; // close() disconnected it mid-start
        this.opts.logger.error({ err, group: sub.groupId, topics: sub.topics }, 'kafka consumer failed to start');
        this.restartLater(sub);
      });
    }, delayMs);
  }

  /**
   * A lingering subscription's fetched batch: gathered, its offsets resolved so that kafkajs fetches
   * on (nothing is committed before the hand-over), and handed over with what came before it once
   * the partition's end or `maxBatch` is reached. True when it handed over up to the end of the
   * partition: the next fetch waits `lingerMs`.
   */
  private async gather(sub: Subscription, l: Lingering, p: EachBatchPayload): Promise<boolean> {
    const { batch } = p;
    // Closing: what was gathered went over in close(); what comes now is fetched again after a restart.
    if (batch.messages.length === 0 || this.closed) return false;
    const g = this.gatheringOf(sub, batch.partition);
    if (g.resumeAt !== undefined) {
      // Fetched before the failed hand-over's seek: kafkajs fetches again from there.
      if (BigInt(batch.messages[0].offset) !== g.resumeAt) return false;
      g.resumeAt = undefined;
    }
    const fresh = g.last === undefined ? batch.messages : batch.messages.filter((m) => BigInt(m.offset) > g.last!);
    p.resolveOffset(batch.messages[batch.messages.length - 1].offset);
    g.highWatermark = BigInt(batch.highWatermark);
    if (fresh.length > 0) {
      if (g.messages.length === 0) this.handOverLater(sub, l, batch.partition, g);
      g.messages.push(...fresh);
      g.last = BigInt(fresh[fresh.length - 1].offset);
    }
    if (g.messages.length >= l.maxBatch) {
      await this.handOver(sub, l, batch.partition, g);
      await p.heartbeat();
      return false;
    }
    // Behind: the next fetches bring more into this hand-over.
    if (batch.offsetLag() !== '0' || g.messages.length === 0) return false;
    return this.handOver(sub, l, batch.partition, g);
  }

  private gatheringOf(sub: Subscription, partition: number): Gathering {
    let g = sub.gathering!.get(partition);
    if (!g) sub.gathering!.set(partition, (g = { messages: [] }));
    return g;
  }

  /** The bound on a gathered event's wait: fetches that stop coming (a slow broker) do not hold it. */
  private handOverLater(sub: Subscription, l: Lingering, partition: number, g: Gathering): void {
    clearTimeout(g.timer);
    g.timer = setTimeout(() => {
      g.timer = undefined;
      if (this.closed) return;
      l.handlers
        .run(() => this.handOver(sub, l, partition, g))
        .catch((err: unknown) => this.opts.logger.error({ err, topic: l.topic, partition }, 'handing gathered events over failed'));
    }, l.lingerMs);
  }

  /**
   * Hands the gathered events over, `maxBatch` at a time, committing each slice's offsets once its
   * handler returned; true when all went. A failed slice is redelivered like any (retryLater); what
   * was gathered after it is dropped and fetched again from there.
   */
  private async handOver(sub: Subscription, l: Lingering, partition: number, g: Gathering): Promise<boolean> {
    clearTimeout(g.timer);
    g.timer = undefined;
    const messages = g.messages.splice(0);
    const physical = this.name(l.topic);
    for (let i = 0; i < messages.length; i += l.maxBatch) {
      const slice = messages.slice(i, i + l.maxBatch);
      const failedAttempts = await this.handleSlice(sub, l.topic, l.handler, partition, slice);
      if (failedAttempts > 0) {
        g.resumeAt = BigInt(slice[0].offset);
        g.last = g.resumeAt - 1n;
        if (g.highWatermark !== undefined) this.setLag(sub, physical, partition, g.highWatermark - g.resumeAt);
        this.retryLater(sub, physical, partition, slice[0].offset, failedAttempts);
        return false;
      }
      const offset = (BigInt(slice[slice.length - 1].offset) + 1n).toString();
      // A commit refused (the partition moved in a rebalance) leaves these to be handled again where it went.
      await sub.consumer.commitOffsets([{ topic: physical, partition, offset }]).catch((err: unknown) => {
        this.opts.logger.warn({ err, topic: physical, partition, offset }, 'offset commit failed; those events may be handled again');
      });
      if (g.highWatermark !== undefined) this.setLag(sub, physical, partition, g.highWatermark - BigInt(offset));
    }
    return true;
  }

  /** Hands `p`'s events over slice by slice; true when every slice was handled (none failed, none left for a rebalance). */
  private async processSlices(
    sub: Subscription,
    topic: string,
    handler: BatchEventHandler,
    maxBatch: number,
    p: EachBatchPayload,
  ): Promise<boolean> {
    const { batch } = p;
    for (let i = 0; i < batch.messages.length; i += maxBatch) {
      if (!p.isRunning() || p.isStale()) return false;
      const slice = batch.messages.slice(i, i + maxBatch);
      const failedAttempts = await this.handleSlice(sub, topic, handler, batch.partition, slice);
      if (failedAttempts > 0) {
        this.retryLater(sub, batch.topic, batch.partition, slice[0].offset, failedAttempts);
        return false;
      }
      p.resolveOffset(slice[slice.length - 1].offset);
      await p.heartbeat();
    }
    return true;
  }

  /**
   * handleOne for a slice. Each event still gets its own CONSUMER span, a child of the context its
   * publisher sent, so every request's trace shows its settlement; the handler runs in the first one's.
   */
  private async handleSlice(
    sub: Subscription,
    topic: string,
    handler: BatchEventHandler,
    partition: number,
    slice: KafkaMessage[],
  ): Promise<number> {
    const failureKey = `${topic}:${partition}`;
    const events: BusEvent[] = [];
    const spans: Span[] = [];
    // The span names the topic as Kafka knows it, as the publisher's span (kafkajs instrumentation) does.
    const physical = this.name(topic);
    for (const m of slice) {
      try {
        const payload: unknown = JSON.parse(m.value?.toString('utf8') ?? 'null');
        const headers = decodeHeaders(m.headers);
        events.push({ payload, meta: { topic, key: m.key?.toString('utf8') ?? '', headers } });
        spans.push(consumerSpan(physical, headers, slice.length));
      } catch (err) {
        this.opts.logger.error({ err, topic, partition, offset: m.offset }, 'dropping an event that is not JSON');
      }
    }
    if (events.length === 0) return 0;
    try {
      await context.with(trace.setSpan(ROOT_CONTEXT, spans[0]), () => handler(events));
      sub.failures.delete(failureKey);
      return 0;
    } catch (err) {
      for (const span of spans) {
        span.recordException(err as Error);
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      const prev = sub.failures.get(failureKey);
      const attempts = prev?.offset === slice[0].offset ? prev.attempts + 1 : 1;
      sub.failures.set(failureKey, { offset: slice[0].offset, attempts });
      this.opts.logger.warn(
        { err, topic, partition, offset: slice[0].offset, events: events.length, attempts },
        'batch handler failed; will redeliver',
      );
      return attempts;
    } finally {
      for (const span of spans) span.end();
    }
  }

  private async processBatch(sub: Subscription, topic: string, handler: EventHandler, p: EachBatchPayload): Promise<void> {
    const { batch } = p;
    for (const message of batch.messages) {
      if (!p.isRunning() || p.isStale()) return;
      const failedAttempts = await this.handleOne(sub, topic, handler, batch.partition, message);
      if (failedAttempts > 0) {
        this.retryLater(sub, batch.topic, batch.partition, message.offset, failedAttempts);
        return;
      }
      p.resolveOffset(message.offset);
      await p.heartbeat();
    }
  }

  /**
   * 0 = processed (or undecodable: retrying could never help); otherwise how many times in a row this
   * message has failed, and it must be redelivered.
   */
  private async handleOne(sub: Subscription, topic: string, handler: EventHandler, partition: number, m: KafkaMessage): Promise<number> {
    const failureKey = `${topic}:${partition}`;
    let payload: unknown;
    try {
      payload = JSON.parse(m.value?.toString('utf8') ?? 'null');
    } catch (err) {
      this.opts.logger.error({ err, topic, partition, offset: m.offset }, 'dropping an event that is not JSON');
      return 0;
    }
    const headers = decodeHeaders(m.headers);
    const key = m.key?.toString('utf8') ?? '';
    try {
      await runInTraceContext(topic, headers, () => handler(payload, { topic, key, headers }));
      sub.failures.delete(failureKey);
      return 0;
    } catch (err) {
      const prev = sub.failures.get(failureKey);
      const attempts = prev?.offset === m.offset ? prev.attempts + 1 : 1;
      sub.failures.set(failureKey, { offset: m.offset, attempts });
      this.opts.logger.warn({ err, topic, partition, offset: m.offset, attempts }, 'event handler failed; will redeliver');
      return attempts;
    }
  }

  /** Pause the partition, rewind to the failed message, resume after the backoff. */
  private retryLater(sub: Subscription, physicalTopic: string, partition: number, offset: string, attempts: number): void {
    const tp = [{ topic: physicalTopic, partitions: [partition] }];
    sub.consumer.pause(tp);
    sub.consumer.seek({ topic: physicalTopic, partition, offset });
    const timer = setTimeout(
      () => {
        sub.timers.delete(timer);
        if (!this.closed) sub.consumer.resume(tp);
      },
      backoffMs(attempts, this.opts.retryBackoff),
    );
    sub.timers.add(timer);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    // What waits to be published goes out first (SIGTERM loses nothing); no window opens behind it.
    clearTimeout(this.lingerTimer);
    this.lingerTimer = undefined;
    this.sendPending();
    await Promise.allSettled([...this.inFlight]);
    this.closed = true;
    for (const sub of this.subscriptions) {
      clearTimeout(sub.restartTimer);
      for (const t of sub.timers) clearTimeout(t);
    }
    this.closing.abort();
    // What lingering subscriptions gathered is handed over and committed before they leave.
    await Promise.allSettled(this.subscriptions.map((s) => s.handOverAll?.()));
    // Consumers first: a clean leave commits what was processed and hands partitions over at once.
    await Promise.allSettled(this.subscriptions.map((s) => s.consumer.disconnect()));
    await this.producer.disconnect().catch(() => undefined);
  }

  private forwardLog(entry: LogEntry): void {
    const { message, ...extra } = entry.log;
    const fields = { kafka: entry.namespace, ...extra };
    if (entry.level === this.logLevel.ERROR) this.opts.logger.error(fields, message);
    else if (entry.level === this.logLevel.WARN) this.opts.logger.warn(fields, message);
    else this.opts.logger.debug(fields, message);
  }
}

/** The CONSUMER span of one event handled in a batch: a child of the context its publisher sent. */
function consumerSpan(topic: string, headers: Record<string, string>, batchSize: number): Span {
  const attributes = {
    'messaging.destination.name': topic,
    'messaging.operation.type': 'process',
    'messaging.batch.message_count': batchSize,
  };
  return tracer.startSpan(`${topic} process`, { kind: SpanKind.CONSUMER, attributes }, propagation.extract(ROOT_CONTEXT, headers));
}

function decodeHeaders(raw: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw ?? {})) {
    const first = Array.isArray(v) ? v[0] : v;
    if (first !== undefined) out[k] = first.toString();
  }
  return out;
}
