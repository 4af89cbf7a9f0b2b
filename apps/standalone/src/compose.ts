/**
 * Wires every service's domain into one process: the edge's ports are the chat, billing and catalog
 * domain objects themselves; events go through the in-process bus; billing's Postgres is PGlite.
 */
import type { INestApplication } from '@nestjs/common';
import { createBillingDomain, openBillingDataSource } from '@unigate/billing';
import { createCatalog, type Env } from '@unigate/catalog';
import { createChatService, createMessagesService } from '@unigate/chat';
import { usdToMicros } from '@unigate/contracts';
import { createEdgeApp, InMemoryKeyLimiter } from '@unigate/edge';
import { EMBEDDED_POOL_SIZE, InMemoryEventBus, Readiness, startEmbeddedPostgres, type Logger } from '@unigate/platform';

export interface ComposeOptions {
  dataDir: string;
  adminToken: string;
  bootstrap?: { apiKey: string; creditUsd: number };
  /** Read by the catalog: UNIGATE_CONFIG, UNIGATE_SIM_URL and provider key variables. */
  env: Env;
  logger: Logger;
}

export interface Gateway {
  app: INestApplication;
  close(): Promise<void>;
}

export async function composeGateway(opts: ComposeOptions): Promise<Gateway> {
  const { logger } = opts;
  // The catalog first: a bad UNIGATE_CONFIG should fail before anything else starts.
  const catalog = createCatalog({ env: opts.env });
  const bus = new InMemoryEventBus({ logger });
  const pg = await startEmbeddedPostgres(opts.dataDir);
  const cleanup: Array<() => Promise<unknown>> = [() => pg.close()];
  try {
    const dataSource = await openBillingDataSource({ url: pg.url, poolSize: EMBEDDED_POOL_SIZE, logger });
    cleanup.unshift(() => dataSource.destroy());
    // Settlement gets its own connection so it never waits behind a queue of holds (docs/billing.md).
    const settlementDataSource = await openBillingDataSource({ url: pg.url, poolSize: EMBEDDED_POOL_SIZE, logger });
    cleanup.unshift(() => settlementDataSource.destroy());
    const billing = createBillingDomain({ dataSource, settlementDataSource, bus, logger });
    cleanup.unshift(() => billing.stop());
    if (opts.bootstrap) await billing.ensureBootstrap(opts.bootstrap.apiKey, usdToMicros(opts.bootstrap.creditUsd));
    await billing.start();
    cleanup.unshift(() => bus.close());

    const chat = createChatService({ bus, logger });
    // One process serves every request, so its memory is an exact limit store.
    const limiter = new InMemoryKeyLimiter({ logger });
    cleanup.unshift(() => limiter.close());
    const app = await createEdgeApp({
      ports: { chat, messages: createMessagesService({ bus, logger }), billing: billing.billing, catalog },
      adminToken: opts.adminToken,
      logger,
      bus,
      instanceId: 'standalone',
      limiter,
    });
    app.get(Readiness).add('database', () => billing.checkReady());
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
