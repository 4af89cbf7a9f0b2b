/**
 * `npm start`: every Unigate service in one process on embedded storage — PGlite (a real Postgres in
 * WASM) instead of a Postgres server, an in-process event bus instead of Kafka, direct calls instead
 * of gRPC — behind the same domain code the distributed services run. It also serves the upstream
 * simulator, which is the default upstream of every model.
 */
import '@unigate/platform/telemetry-register';
import { resolve } from 'node:path';
import { createLogger, port, readEnv } from '@unigate/platform';
import { createSimulator } from '@unigate/upstream-sim';
import { z } from 'zod';
import { banner } from './banner';
import { composeGateway } from './compose';
import { generateAdminToken, generateApiKey, persistentSecret } from './secrets';

const env = z.object({
  PORT: port(8080),
  HOST: z.string().default('127.0.0.1'),
  UNIGATE_SIM_PORT: port(8090),
  UNIGATE_DATA_DIR: z.string().default('./.unigate'),
  UNIGATE_ADMIN_TOKEN: z.string().min(16, 'UNIGATE_ADMIN_TOKEN must be at least 16 characters').optional(),
  UNIGATE_BOOTSTRAP_KEY: z.string().regex(/^sk-\S{20,}$/, 'UNIGATE_BOOTSTRAP_KEY must look like sk-… (at least 20 characters after sk-)').optional(),
  UNIGATE_BOOTSTRAP_CREDIT_USD: z.coerce.number().nonnegative().default(100),
});

async function main() {
  const e = readEnv(env);
  const logger = createLogger('standalone');
  const dataDir = resolve(e.UNIGATE_DATA_DIR);
  const adminToken = e.UNIGATE_ADMIN_TOKEN ?? persistentSecret(dataDir, 'admin-token', generateAdminToken);
  const apiKey = e.UNIGATE_BOOTSTRAP_KEY ?? persistentSecret(dataDir, 'bootstrap-key', generateApiKey);

  const sim = await createSimulator({ port: e.UNIGATE_SIM_PORT, host: '127.0.0.1' });
  const gateway = await composeGateway({
    dataDir,
    adminToken,
    bootstrap: { apiKey, creditUsd: e.UNIGATE_BOOTSTRAP_CREDIT_USD },
    env: { ...process.env, UNIGATE_SIM_URL: process.env.UNIGATE_SIM_URL ?? sim.url },
    logger,
  });
  await gateway.app.listen(e.PORT, e.HOST);
  const origin = (await gateway.app.getUrl()).replace('[::1]', 'localhost');
  process.stdout.write(
    banner({ baseUrl: `${origin}/v1`, simUrl: sim.url, adminToken, apiKey, dataDir, keyFromEnv: Boolean(e.UNIGATE_BOOTSTRAP_KEY) }) + '\n',
  );

  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await gateway.close();
    await sim.close();
    process.exit(0);
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
