/**
 * The catalog module's gRPC handlers over real gRPC: served in-process on a free port by the same
 * server the service process runs, called with the generated client; answers are decoded against the
 * contracts schemas like the edge does.
 */
import 'reflect-metadata';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { GatewayError, modelInfoSchema, modelRouteSchema, type ModelInfo, type ModelRoute } from '@unigate/contracts';
import { decodeJson } from '@unigate/platform';
import {
  fromGrpcError,
  GRPC_HANDLERS,
  grpcClient,
  startGrpcServer,
  unary,
  type GrpcHandlers,
  type GrpcServer,
} from '@unigate/platform/distributed';
import type { CatalogServiceClient, ModelList__Output, Route__Output } from '@unigate/proto';
import { freePort } from '@unigate/testing';
import { CatalogAppModule } from '../src/catalog.module';

type CatalogClient = CatalogServiceClient;

const ENV_KEYS = ['UNIGATE_CONFIG', 'UNIGATE_SIM_URL', 'CATALOG_TEST_SIGMA_KEY'] as const;
const savedEnv = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));

function writeConfig(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'catalog-grpc-')), 'unigate.yaml');
  writeFileSync(path, text);
  return path;
}

interface Started {
  context: INestApplicationContext;
  server: GrpcServer;
  close(): Promise<void>;
}

async function startCatalog(port: number): Promise<Started> {
  const context = await NestFactory.createApplicationContext(CatalogAppModule, { logger: false, abortOnError: false });
  const server = await startGrpcServer(`127.0.0.1:${port}`, context.get<GrpcHandlers>(GRPC_HANDLERS));
  return { context, server, close: async () => (await server.close(), await context.close()) };
}

async function call(client: CatalogClient, method: 'Resolve' | 'List', req: object): Promise<unknown> {
  if (method === 'List') {
    const reply = await unary<object, ModelList__Output>(client.List.bind(client), req);
    return reply.models.map((m) => decodeJson(modelInfoSchema, m, 'model', 'peer'));
  }
  const reply = await unary<object, Route__Output>(client.Resolve.bind(client), req);
  return decodeJson(modelRouteSchema, reply.route, 'route', 'peer');
}

afterAll(() => {
  for (const k of ENV_KEYS) {
    if (savedEnv[k] === undefined) delete process.env[k];
    else process.env[k] = savedEnv[k];
  }
});

describe('catalog gRPC service', () => {
  let app: Started;
  let client: CatalogClient;

  beforeAll(async () => {
    process.env.UNIGATE_SIM_URL = 'http://sim.test:8090';
    process.env.CATALOG_TEST_SIGMA_KEY = 'sk-from-env';
    process.env.UNIGATE_CONFIG = writeConfig(`
providers:
  - { name: sigma, protocol: anthropic-messages, base_url: "https://api.sigma.test", api_key_env: CATALOG_TEST_SIGMA_KEY }
models:
  sigma-opus-4-7:
    channels:
      - { provider: sigma, upstream_model: opus-upstream, priority: 1 }
prices:
  sigma-opus-4-7: { output_per_mtok: 20000000 }
aliases:
  opus: sigma-opus-4-7
`);
    const port = await freePort();
    app = await startCatalog(port);
    client = grpcClient('catalog', `127.0.0.1:${port}`);
  });

  afterAll(async () => {
    client?.close();
    await app?.close();
  });

  it('lists every model, each decoded against the model schema', async () => {
    const models = (await call(client, 'List', {})) as ModelInfo[];
    expect(models).toHaveLength(41);
    expect(models.find((m) => m.id === 'omega-k3')).toMatchObject({ family: 'omega', kind: 'chat', context_window: 1_048_576 });
    expect(models.find((m) => m.id === 'sigma-opus-4-7')!.prices.output_per_mtok).toBe(20_000_000);
  });

  it('resolves a model to its simulator route by default', async () => {
    const route = (await call(client, 'Resolve', { model: 'gamma-2.5-pro' })) as ModelRoute;
    expect(route.model.id).toBe('gamma-2.5-pro');
    expect(route.channels).toEqual([
      {
        id: 'sim',
        protocol: 'gemini-generate',
        base_url: 'http://sim.test:8090',
        api_key: '',
        upstream_model: 'gamma-2.5-pro',
        priority: 0,
        weight: 1,
      },
    ]);
  });

  it('resolves aliases to configured channels carrying the key read from the environment', async () => {
    const route = (await call(client, 'Resolve', { model: 'opus' })) as ModelRoute;
    expect(route.model.id).toBe('sigma-opus-4-7');
    expect(route.channels).toEqual([
      {
        id: 'sigma',
        protocol: 'anthropic-messages',
        base_url: 'https://api.sigma.test',
        api_key: 'sk-from-env',
        upstream_model: 'opus-upstream',
        priority: 1,
        weight: 1,
      },
    ]);
    const dated = (await call(client, 'Resolve', { model: 'claude-sonnet-4-5-20250929' })) as ModelRoute;
    expect(dated.model.id).toBe('sigma-sonnet-4-6');
  });

  it('answers an unknown model with NOT_FOUND carrying the typed error', async () => {
    const raw = await new Promise<grpc.ServiceError | null>((resolve) =>
      client.Resolve({ model: 'sigma-sonnet-9' }, (err) => resolve(err)),
    );
    expect(raw?.code).toBe(grpc.status.NOT_FOUND);
    const typed = fromGrpcError(raw);
    expect(typed).toBeInstanceOf(GatewayError);
    expect(typed).toMatchObject({ status: 404, code: 'model_not_found', param: 'model' });
    expect(typed.message).toContain("'sigma-sonnet-9'");
  });
});

describe('catalog start-up', () => {
  it('refuses to start with a bad UNIGATE_CONFIG, naming the field', async () => {
    process.env.UNIGATE_CONFIG = writeConfig(
      'providers:\n  - { name: x, protocol: openai-chat, base_url: "https://x.test/v1", api_key_env: CATALOG_TEST_UNSET_KEY }\n',
    );
    delete process.env.CATALOG_TEST_UNSET_KEY;
    const port = await freePort();
    await expect(startCatalog(port)).rejects.toThrow('providers[0].api_key_env: environment variable CATALOG_TEST_UNSET_KEY is not set');
  });
});
