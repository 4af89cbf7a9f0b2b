/**
 * Wires every service's domain into one process: the edge's ports are the chat, media, billing and catalog
 * domain objects themselves; events go through the in-process bus; billing's and chat's Postgres
 * schemas are on PGlite.
 */
import type { INestApplication } from '@nestjs/common';
import { createBillingDomain, openBillingDataSource } from '@unigate/billing';
import { createCatalog, type Env } from '@unigate/catalog';
import {
  createChatService,
  openChatDataSource,
  responsesRetentionDays,
  startResponsesExpiry,
  StoredResponseReads,
  TypeOrmResponsesStore,
} from '@unigate/chat';
import { join } from 'node:path';
import { createMediaService, interactionRegistry } from '@unigate/media';
import { createVideoService, DEFAULT_WEBHOOK_RETRY, openVideoDataSource, TimerPolls, TimerWebhooks } from '@unigate/video/embedded';
import { usdToMicros } from '@unigate/contracts';
import { createEdgeApp } from '@unigate/edge';
import {
  FsObjectStore,
  InMemoryEventBus,
  LinkSigner,
  type Logger,
  Readiness,
  resultStore,
  startSweeper,
  UsageRecorder,
} from '@unigate/platform';
import { EMBEDDED_POOL_SIZE, type EmbeddedPostgres, startEmbeddedPostgres } from '@unigate/platform/database';

/** How often expired results are deleted from the data directory. */
const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

export interface ComposeOptions {
  dataDir: string;
  /** The embedded Postgres of `dataDir`, when the caller started it already (main.ts); else started here. */
  database?: Promise<EmbeddedPostgres>;
  adminToken: string;
  /** Signs the links to kept results (alpha images). */
  linkSecret: string;
  bootstrap?: { apiKey: string; creditUsd: number };
  /** Read by the catalog: UNIGATE_CONFIG, UNIGATE_SIM_URL and provider key variables. */
  env: Env;
  logger: Logger;
  /** Video poll backoff (tests poll fast); default the video service's. */
  videoPolls?: { baseMs: number; maxMs: number };
  /** Webhook retry schedule (tests retry fast); default DEFAULT_WEBHOOK_RETRY. */
  webhookRetry?: { baseMs: number; maxMs: number; attempts: number };
}

export interface Gateway {
  app: INestApplication;
  close(): Promise<void>;
}

export async function composeGateway(opts: ComposeOptions): Promise<Gateway> {
  const { logger } = opts;
  // The catalog first: a bad UNIGATE_CONFIG fails before any service starts (only a database that
  // main.ts started may run, and main.ts closes it).
  const catalog = createCatalog({ env: opts.env });
  const bus = new InMemoryEventBus({ logger });
  const pg = await (opts.database ?? startEmbeddedPostgres(opts.dataDir));
  const cleanup: Array<() => Promise<unknown>> = [() => pg.close()];
  try {
    const dataSource = await openBillingDataSource({ url: pg.url, poolSize: EMBEDDED_POOL_SIZE, logger });
    cleanup.unshift(() => dataSource.destroy());
    // One process is the only writer: money lives in memory, the ledger follows in group commits.
    // The journal beside the database: a kill -9 between a charge and its group commit loses nothing.
    const billing = createBillingDomain({
      dataSource,
      bus,
      logger,
      mode: { kind: 'embedded', journalDir: join(opts.dataDir, 'ledger-journal') },
    });
    // Stored Responses: the chat schema on the same embedded Postgres, its own connection.
    const chatDataSource = await openChatDataSource({ url: pg.url, poolSize: EMBEDDED_POOL_SIZE, logger });
    cleanup.unshift(() => chatDataSource.destroy());
    const responses = new TypeOrmResponsesStore(chatDataSource);
    const stopExpiry = startResponsesExpiry(responses, { retentionDays: responsesRetentionDays(opts.env), logger });
    cleanup.unshift(() => stopExpiry());
    // Stopping billing writes every settled charge before the database closes.
    cleanup.unshift(() => billing.stop());
    if (opts.bootstrap) await billing.ensureBootstrap(opts.bootstrap.apiKey, usdToMicros(opts.bootstrap.creditUsd));
    await billing.start();
    cleanup.unshift(() => bus.close());

    // Usage settles straight into the embedded ledger: no queue between a call and its charge. Each
    // event is journaled before its answer is written, so a kill -9 after that loses no charge.
    const usage = new UsageRecorder((event) => billing.settle(event), logger, { journal: billing.journalUsage });
    // Results that outlive a request (alpha images) live in the data directory, served by signed link.
    const objects = new FsObjectStore(join(opts.dataDir, 'objects'));
    const signer = new LinkSigner(opts.linkSecret);
    const stopSweeper = startSweeper(objects, SWEEP_INTERVAL_MS, (err) => logger.warn({ err }, 'sweeping expired results failed'));
    cleanup.unshift(async () => stopSweeper());
    // Video tasks: the video schema on the same embedded Postgres, polled on in-process timers (no Redis here).
    const videoDataSource = await openVideoDataSource({ url: pg.url, poolSize: EMBEDDED_POOL_SIZE, logger });
    cleanup.unshift(() => videoDataSource.destroy());
    const polls = new TimerPolls(logger);
    cleanup.unshift(async () => polls.stop());
    const webhooks = new TimerWebhooks(opts.webhookRetry ?? DEFAULT_WEBHOOK_RETRY, logger);
    cleanup.unshift(async () => webhooks.stop());
    const video = createVideoService({
      dataSource: videoDataSource,
      usage,
      billing: billing.billing,
      catalog,
      bus,
      results: resultStore(objects, signer),
      polls,
      webhooks,
      webhookOptions: { allowPrivate: opts.env.UNIGATE_WEBHOOK_ALLOW_PRIVATE === '1' },
      timing: opts.videoPolls,
      logger,
    });
    webhooks.attach(video.delivery);
    polls.start((id) => video.tasks.poll(id), await video.store.open());
    const app = await createEdgeApp({
      ports: {
        billing: billing.billing,
        catalog,
        services: {
          chat: createChatService({ usage, logger, responses }),
          media: createMediaService({ usage, logger, results: resultStore(objects, signer), interactions: interactionRegistry(objects) }),
          video,
        },
        videoTasks: video,
        storedResponses: new StoredResponseReads(responses),
      },
      adminToken: opts.adminToken,
      logger,
      bus,
      instanceId: 'standalone',
      reservations: billing.reservations!,
      files: { store: objects, signer },
    });
    app.get(Readiness).add('database', () => billing.checkReady());
    // After the app (no call records any more), before billing stops (it writes what was recorded).
    cleanup.unshift(() => usage.flush(5_000));
    cleanup.unshift(() => app.close());
    return { app, close: () => runAll(cleanup) };
  } catch (err) {
    await runAll(cleanup);
    throw err;
  }
}

async function runAll(steps: Array<() => Promise<unknown>>): Promise<void> {
  for (const step of steps) await step().catch(() => undefined);
}
