/**
 * Builds the edge HTTP application (Fastify under Nest) around its ports. The distributed edge
 * process and the standalone process both call this; only the ports and the key limiter (Redis or
 * in-memory) differ.
 */
import 'reflect-metadata';
import { Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  ENDPOINTS,
  keyStaleSchema,
  responsesSpec,
  TOPICS,
  type BillingPort,
  type CapabilityService,
  type CatalogPort,
  type EndpointPort,
  type StoredResponsePort,
  type VideoTaskPort,
} from '@unigate/contracts';
import {
  HttpDrain,
  lazySchemaCompilers,
  loggedBodyBudget,
  ObservabilityModule,
  PinoNestLogger,
  Readiness,
  useLeanAsyncResourceBind,
  type EventBus,
  type EventHandler,
  type Logger,
} from '@unigate/platform';
import type { FastifyInstance } from 'fastify';
import { Authenticator, keyCacheTtlFromEnv, unknownKeyLimitFromEnv } from './auth/authenticator';
import { EdgeModule } from './edge.module';
import type { EdgeOptions } from './edge-options';
import { registerAnsweringTimeout } from './http/answering-timeout';
import { registerBodyDecoding } from './http/body-encoding';
import { registerBodyBudget } from './http/body-budget';
import { registerCors } from './http/cors';
import { BODY_LIMIT_BYTES } from './http/error-renderer';
import { GatewayExceptionFilter } from './http/exception.filter';
import { clientAddressReader, httpSettingsFromEnv, type HttpSettings } from './http/http-settings';
import { answerUnmetExpectations, clientErrorHandler, frameworkErrors } from './http/server-errors';
import { registerJsonBodyParser } from './http/json-body';
import { LeanFastifyAdapter } from './http/lean-fastify-adapter';
import { registerMcp } from './mcp/register-mcp';
import { registerReference } from './reference/register-reference';
import { registerWeb } from './web/register-web';
import { webSettingsFromEnv, type WebSettings } from './web/web-settings';
import { MemoryWebStore, type WebStore } from './web/web-store';
import { EDGE_VERSION } from './version';
import { newRequestId, registerRequestHooks } from './http/request-id';
import { registerRequestSpan } from './http/request-span';
import { registerPipeliningCap } from './http/pipelining';
import type { Reservations } from '@unigate/billing/reservations';
import { registerFileRoutes, type FileRoutesOptions } from './files/file-routes';
import { EndpointPipeline } from './pipeline/endpoint-pipeline';
import { registerEndpoints } from './pipeline/register-endpoints';
import { registerStoredResponseRoutes } from './responses/stored-response-routes';
import { registerResponsesWebSocket } from './responses/responses-websocket';
import { LocalCalls } from './http/local-calls';
import { registerVideoTaskRoutes } from './videos/video-task-routes';

export interface EdgePorts {
  billing: BillingPort;
  catalog: CatalogPort;
  /** The capability services of this deployment (chat, media, video): their endpoints are served. */
  services: Partial<Record<CapabilityService, EndpointPort>>;
  /** Video task lookups (the API and the dashboard), where the deployment runs the video service. */
  videoTasks?: VideoTaskPort;
  /** Stored Responses read back and deleted by id (the chat service's). */
  storedResponses?: StoredResponsePort;
}

export interface EdgeAppOptions extends EdgeOptions {
  ports: EdgePorts;
  logger: Logger;
  /** Where the key-stale event arrives (a key revoked or changed); each edge instance consumes every one. */
  bus?: EventBus;
  /** More topics this instance's consumer handles beside the key-stale one (one group member for all). */
  events?: Record<string, EventHandler>;
  /**
   * Runs whenever that consumer starts a membership of its group: it starts at the topics' end, so
   * what `events` keep fresh must be refreshed (the key-stale topic's cache is rechecked here).
   */
  eventsMissed?: () => void;
  instanceId: string;
  /** Per-key limits and holds in one step; the caller owns it (and closes it after the app). */
  reservations: Reservations;
  /** Timeouts, connection cap and metrics token; default: from the environment. */
  http?: Partial<HttpSettings>;
  /** Results kept in the object store, served by signed link (alpha image results). */
  files?: FileRoutesOptions;
  /** Dashboard sessions and log-in throttles: shared (Redis) across replicas; default in memory (one process). */
  webStore?: WebStore;
  /** Sign-up settings; default: from the environment. */
  web?: WebSettings;
  /** How long a key billing confirmed is trusted without asking again; default: UNIGATE_KEY_CACHE_TTL_MS or 30 s. */
  keyCacheTtlMs?: number;
}

export async function createEdgeApp(opts: EdgeAppOptions): Promise<INestApplication> {
  const { ports, logger } = opts;
  // Fastify binds an AsyncResource per request body; Node 20's bind made every request promoted garbage.
  useLeanAsyncResourceBind();
  const http = { ...httpSettingsFromEnv(), ...opts.http };
  const adapter = new LeanFastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: newRequestId,
    logger: false,
    trustProxy: http.trustProxy,
    requestTimeout: http.requestTimeoutMs,
    connectionTimeout: http.idleTimeoutMs,
    keepAliveTimeout: http.keepAliveTimeoutMs,
    // Node checks the request and headers timeouts on this interval (default 30 s): keep it well below them.
    http: { headersTimeout: http.headersTimeoutMs, connectionsCheckingInterval: Math.max(50, Math.min(1_000, http.headersTimeoutMs / 4)) },
    clientErrorHandler,
    frameworkErrors,
    schemaController: lazySchemaCompilers(),
  });
  const fastify = adapter.getInstance();
  const drain = new HttpDrain();
  drain.attach(fastify);
  fastify.server.maxConnections = http.maxConnections;
  answerUnmetExpectations(fastify.server);
  // First, so that every answer to a browser's request carries its CORS headers, a refusal's too.
  registerCors(fastify, http.corsOrigins);
  registerAnsweringTimeout(fastify);
  registerJsonBodyParser(fastify);
  registerBodyDecoding(fastify, BODY_LIMIT_BYTES);
  const bodyBudget = loggedBodyBudget(http.bodyMemoryBytes, logger);
  // After the decoding hook: an encoded body is counted as it decodes.
  registerBodyBudget(fastify, bodyBudget, BODY_LIMIT_BYTES);
  registerRequestHooks(fastify, logger);
  registerPipeliningCap(fastify);
  registerRequestSpan(fastify);

  const auth = new Authenticator(ports.billing, {
    ttlMs: opts.keyCacheTtlMs ?? keyCacheTtlFromEnv(),
    unknownKeyLimit: unknownKeyLimitFromEnv(),
    onUnknownKeysExhausted: (address) =>
      logger.warn(
        { client_address: address },
        'a client sent too many unknown API keys: keys this edge has not cached are refused 429 from its address for a while',
      ),
    onBillingFailing: (failing, err) =>
      failing
        ? logger.warn({ err }, 'billing cannot answer key lookups: keys it confirmed are served from this edge’s cache meanwhile')
        : logger.info('billing answers key lookups again'),
  });
  const pipeline = new EndpointPipeline({
    catalog: ports.catalog,
    reservations: opts.reservations,
    services: ports.services,
    logger,
  });
  registerEndpoints(fastify, pipeline, auth, logger);
  const served = ENDPOINTS.filter((s) => pipeline.serves(s));
  // Task lookups: the video task route below, served with the video task port.
  const lookups = ports.videoTasks ? served.filter((s) => s.lookup) : [];
  const storedResponses = Boolean(ports.storedResponses);
  // In-process requests on the edge's own routes: MCP tool calls and WebSocket-mode responses.
  const local = new LocalCalls(fastify);
  registerMcp(fastify, { auth, billing: ports.billing, catalog: ports.catalog, specs: served, lookups, storedResponses, logger, local });
  registerReference(fastify, served, { lookups, storedResponses }, EDGE_VERSION);
  if (opts.files) registerFileRoutes(fastify, opts.files);
  registerWeb(fastify, {
    billing: ports.billing,
    videoTasks: ports.videoTasks,
    store: opts.webStore ?? new MemoryWebStore(),
    settings: opts.web ?? webSettingsFromEnv(),
    logger,
  });
  if (ports.videoTasks) registerVideoTaskRoutes(fastify, ports.videoTasks, ports.billing, auth, opts.adminToken);
  if (ports.storedResponses) registerStoredResponseRoutes(fastify, ports.storedResponses, auth);
  const endSockets = served.includes(responsesSpec)
    ? registerResponsesWebSocket({
        server: fastify.server,
        auth,
        catalog: ports.catalog,
        local,
        maxPayload: BODY_LIMIT_BYTES,
        idleTimeoutMs: http.idleTimeoutMs,
        messageTimeoutMs: http.requestTimeoutMs,
        maxAgeMs: http.websocketMaxAgeMs,
        bodyBudget,
        clientAddress: clientAddressReader(http.trustProxy),
        logger,
      })
    : () => undefined;

  @Module({
    imports: [
      ObservabilityModule.withMetricsToken(http.metricsToken ?? opts.adminToken),
      EdgeModule.register({ billing: ports.billing, catalog: ports.catalog, auth, options: { adminToken: opts.adminToken } }),
    ],
  })
  class EdgeRoot {}

  const app = await NestFactory.create<NestFastifyApplication>(EdgeRoot, adapter, {
    logger: new PinoNestLogger(logger),
    bodyParser: false,
  });
  app.useGlobalFilters(new GatewayExceptionFilter(logger));

  if (opts.bus) {
    // A group of this instance alone: every edge hears every event, and a gone instance leaves no
    // committed offsets on the brokers (each restart of each replica would add a group showing lag).
    await opts.bus.subscribeAll(
      `edge-${opts.instanceId}`,
      {
        ...opts.events,
        [TOPICS.keyStale]: async (payload) => auth.stale(keyStaleSchema.parse(payload).key_hash),
      },
      {
        ownGroup: {
          onJoin: () => {
            auth.recheckAll();
            opts.eventsMissed?.();
          },
        },
      },
    );
  }
  app.get(Readiness).add('edge', async () => undefined);
  app.get(Readiness).add('limits', () => opts.reservations.checkReady());
  drains.set(app, { drain, fastify, logger, endSockets });
  return app;
}

const drains = new WeakMap<INestApplication, { drain: HttpDrain; fastify: FastifyInstance; logger: Logger; endSockets: () => void }>();

/**
 * The edge's part of a graceful shutdown, before `app.close()`: not ready any more, no new
 * connections, idle and stalled ones closed now, answers in flight (streams too) given `deadlineMs`.
 */
export async function drainEdgeApp(app: INestApplication, deadlineMs: number): Promise<void> {
  const entry = drains.get(app);
  if (!entry) return;
  app.get(Readiness).drain();
  // WebSocket connections end once their response in flight has (the drain waits for it like any other).
  entry.endSockets();
  await entry.drain.drain(entry.fastify, deadlineMs, entry.logger);
}
