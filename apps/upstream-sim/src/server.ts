/**
 * Builds one simulator: a plain fastify app with a folder of routes per upstream protocol, the
 * /_sim control routes, request logging and OpenAI-shaped errors. No per-request logging: the
 * benchmark compares the gateway against this server directly.
 */
import { GatewayError, renderShapeB } from '@unigate/contracts';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { anthropicRoutes } from './anthropic/anthropic-routes';
import { CONTROL_PREFIX, controlRoutes } from './control/control-routes';
import { dashscopeRoutes } from './dashscope/dashscope-routes';
import { dashscopeVideoRoutes } from './dashscope/dashscope-video-routes';
import { arkVideoRoutes } from './ark/ark-video-routes';
import { embeddingsRoutes } from './embeddings/embeddings-routes';
import { imagesRoutes } from './openai-images/images-routes';
import { geminiRoutes } from './gemini/gemini-routes';
import { interactionsRoutes } from './gemini/interactions-routes';
import { invalidRequestBody, openAiErrorBody } from './openai/openai-errors';
import { openAiRoutes } from './openai/openai-routes';
import { responsesRoutes } from './openai-responses/responses-routes';
import { createSimState, type SimState } from './sim-state';

const MAX_LOGGED_BODY_BYTES = 1024 * 1024;

export interface SimulatorAppOptions {
  /** Default delay between stream chunks in ms (default 2). */
  tokenDelayMs?: number;
  /** How many received requests GET /_sim/requests keeps (default 200). */
  requestLogLimit?: number;
}

export function buildSimulatorApp(opts: SimulatorAppOptions = {}): { app: FastifyInstance; state: SimState } {
  const state = createSimState(opts);
  const app = Fastify({
    logger: false,
    bodyLimit: 64 * 1024 * 1024, // long-context prompts and base64 images
    forceCloseConnections: true, // close() must not wait for idle keep-alive sockets or open streams
    ajv: { customOptions: { removeAdditional: false } }, // a typo in a fault rule is an error, not ignored
    // The vendors' parsers take any key: a tool schema's property may be named `__proto__` or
    // `constructor`. JSON.parse keeps such keys as own properties; Fastify's default 400 is not theirs.
    onProtoPoisoning: 'ignore',
    onConstructorPoisoning: 'ignore',
  });

  app.addHook('preHandler', async (req) => {
    if (req.url.startsWith(CONTROL_PREFIX)) return;
    // Keep the log's memory bounded too: huge bodies (long contexts, images) are noted, not kept.
    const bytes = Number(req.headers['content-length'] ?? 0);
    const body = bytes > MAX_LOGGED_BODY_BYTES ? { _omitted_bytes: bytes } : (req.body ?? null);
    state.requests.record({ method: req.method, path: req.url, headers: { ...req.headers }, body });
  });

  app.setErrorHandler((err: FastifyError | GatewayError, _req, reply) => {
    if (GatewayError.is(err)) return reply.code(err.status).send(renderShapeB(err));
    if (err.validation) return reply.code(400).send(invalidRequestBody(err.message));
    if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return reply
        .code(400)
        .send(invalidRequestBody(`We could not parse the JSON body of your request. (${err.message})`, null, 'invalid_json'));
    }
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    return reply.code(status).send(status === 500 ? openAiErrorBody(500) : invalidRequestBody(err.message));
  });

  app.setNotFoundHandler((req, reply) => reply.code(404).send(invalidRequestBody(`Invalid URL (${req.method} ${req.url.split('?')[0]})`)));

  app.register(openAiRoutes, { state });
  app.register(responsesRoutes, { state });
  app.register(anthropicRoutes, { state }); // its own error handler: Anthropic's error shape
  app.register(geminiRoutes, { state });
  app.register(interactionsRoutes, { state });
  app.register(embeddingsRoutes, { state });
  app.register(dashscopeRoutes, { state });
  app.register(dashscopeVideoRoutes, { state });
  app.register(arkVideoRoutes, { state });
  app.register(imagesRoutes, { state }); // its own multipart parser, scoped to the images routes
  app.register(controlRoutes, { state, prefix: CONTROL_PREFIX });
  return { app, state };
}
