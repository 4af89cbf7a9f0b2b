/**
 * `npm start`: every Unigate service in one process on embedded storage — PGlite (a real Postgres in
 * WASM) instead of a Postgres server, an in-process event bus instead of Kafka, direct calls instead
 * of gRPC — behind the same domain code the distributed services run. It also serves the upstream
 * simulator, which is the default upstream of every model — unless UNIGATE_SIM_URL names one that
 * already runs elsewhere (the benchmark's own process), which every model then uses instead.
 */
import { bootstrapCreditUsdEnv, listenHost } from '@unigate/contracts';
import { applyHeapGrowth, createLogger, onShutdownSignal, port, readEnv, STANDALONE_HEAP_GROWING_PERCENT } from '@unigate/platform';
import { drainEdgeApp } from '@unigate/edge';
import { createSimulator } from '@unigate/upstream-sim';
import { z } from 'zod';
import { banner } from './banner';
import { composeGateway } from './compose';
import { DEFAULT_WEBHOOK_RETRY } from '@unigate/video/embedded';
import { generateAdminToken, generateApiKey, persistentSecret } from './secrets';
import type { EmbeddedPostgres } from '@unigate/platform/embedded-postgres';

const env = z.object({
  PORT: port(8080),
  HOST: listenHost('127.0.0.1'),
  UNIGATE_SIM_PORT: port(8090),
  UNIGATE_SIM_URL: z.string().trim().optional(),
  UNIGATE_ADMIN_TOKEN: z.string().min(16, 'UNIGATE_ADMIN_TOKEN must be at least 16 characters').optional(),
  UNIGATE_BOOTSTRAP_KEY: z
    .string()
    .regex(/^sk-\S{20,}$/, 'UNIGATE_BOOTSTRAP_KEY must look like sk-… (at least 20 characters after sk-)')
    .optional(),
  UNIGATE_BOOTSTRAP_CREDIT_USD: bootstrapCreditUsdEnv,
  /** Video poll backoff base and cap in ms (docs/video.md); tests poll fast. */
  UNIGATE_VIDEO_POLL_BASE_MS: z.coerce.number().int().positive().default(5_000),
  UNIGATE_VIDEO_POLL_MAX_MS: z.coerce.number().int().positive().default(60_000),
  /** Webhook retry base in ms (docs/video.md); tests retry fast. */
  UNIGATE_WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().positive().optional(),
  UNIGATE_LINK_SECRET: z.string().min(16, 'UNIGATE_LINK_SECRET must be at least 16 characters').optional(),
});

/** The gateway on `dataDir` (UNIGATE_DATA_DIR) and `database`, the embedded Postgres main.ts started there. */
export async function start(dataDir: string, database: Promise<EmbeddedPostgres>): Promise<void> {
  applyHeapGrowth(process.env, STANDALONE_HEAP_GROWING_PERCENT);
  const e = readEnv(env);
  const logger = createLogger('standalone');
  const adminToken = e.UNIGATE_ADMIN_TOKEN ?? persistentSecret(dataDir, 'admin-token', generateAdminToken);
  const apiKey = e.UNIGATE_BOOTSTRAP_KEY ?? persistentSecret(dataDir, 'bootstrap-key', generateApiKey);
  // Signs result links; kept across restarts so links stay valid for their whole 24 hours.
  const linkSecret = e.UNIGATE_LINK_SECRET ?? persistentSecret(dataDir, 'link-secret', generateAdminToken);

  // An external simulator replaces the built-in one, which would otherwise sit in this process's event
  // loop for nothing (and, under load, compete with the gateway for the same CPU).
  const sim = e.UNIGATE_SIM_URL
    ? { url: e.UNIGATE_SIM_URL, close: async () => undefined }
    : await createSimulator({ port: e.UNIGATE_SIM_PORT, host: '127.0.0.1' });
  const gateway = await composeGateway({
    dataDir,
    database,
    adminToken,
    linkSecret,
    bootstrap: { apiKey, creditUsd: e.UNIGATE_BOOTSTRAP_CREDIT_USD },
    env: { ...process.env, UNIGATE_SIM_URL: sim.url },
    logger,
    videoPolls: { baseMs: e.UNIGATE_VIDEO_POLL_BASE_MS, maxMs: e.UNIGATE_VIDEO_POLL_MAX_MS },
    ...(e.UNIGATE_WEBHOOK_RETRY_BASE_MS && { webhookRetry: { ...DEFAULT_WEBHOOK_RETRY, baseMs: e.UNIGATE_WEBHOOK_RETRY_BASE_MS } }),
  });
  await gateway.app.listen(e.PORT, e.HOST);
  const origin = (await gateway.app.getUrl()).replace('[::1]', 'localhost');
  process.stdout.write(
    banner({
      origin,
      simUrl: sim.url,
      adminToken,
      apiKey,
      dataDir,
      keyFromEnv: Boolean(e.UNIGATE_BOOTSTRAP_KEY),
      tokenFromEnv: Boolean(e.UNIGATE_ADMIN_TOKEN),
    }) + '\n',
  );

  onShutdownSignal(logger, async (deadlineMs) => {
    // Answers in flight finish first; then billing writes every settled charge (gateway.close).
    await drainEdgeApp(gateway.app, deadlineMs);
    await gateway.close();
    await sim.close();
  });
}
