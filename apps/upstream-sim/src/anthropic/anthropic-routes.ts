/**
 * The Anthropic Messages protocol: POST /v1/messages (JSON or SSE) and POST /v1/messages/count_tokens.
 * Accepts the key as `x-api-key` or `Authorization: Bearer` (or none: the simulator checks no keys)
 * and requires `anthropic-version` as the real API does. Faults set through /_sim/faults apply before
 * validation (matched by model and path), and every error is in Anthropic's shape: this plugin has
 * its own error handler, encapsulated from the OpenAI routes'.
 */
import { randomBytes } from 'node:crypto';
import {
  anthropicCountTokensRequestSchema,
  anthropicMessagesRequestSchema,
  countPromptTokens,
  GatewayError,
  parseOrThrow,
} from '@unigate/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { holdFor, writeSse } from '../shared/sse-writer';
import type { SimState } from '../sim-state';
import { answerMessages } from './anthropic-answer';
import { refuseEmptyContent } from './anthropic-empty-content';
import { anthropicErrorBody } from './anthropic-errors';
import { promptMessages } from './anthropic-prompt';
import { PromptCache } from './anthropic-prompt-cache';
import { toMessage, toStreamEvents } from './anthropic-wire';

export const MESSAGES_PATH = '/v1/messages';
export const COUNT_TOKENS_PATH = '/v1/messages/count_tokens';

export async function anthropicRoutes(app: FastifyInstance, opts: { state: SimState }): Promise<void> {
  const { state } = opts;
  const cache = new PromptCache(); // per simulator instance, like an account's cache upstream

  app.addHook('onRequest', async (req, reply) => {
    reply.header('request-id', requestIdOf(req));
  });

  app.setErrorHandler((err: FastifyError | GatewayError, req, reply) => {
    const id = requestIdOf(req);
    if (GatewayError.is(err)) return reply.code(err.status).send(anthropicErrorBody(err.status, id, err.message));
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    return reply.code(status).send(anthropicErrorBody(status, id, status === 500 ? undefined : err.message));
  });

  app.post(MESSAGES_PATH, async (req, reply) => {
    if (!(await applyFault(req, reply, MESSAGES_PATH))) return reply;
    requireVersion(req);
    const body = parseOrThrow(anthropicMessagesRequestSchema, req.body);
    refuseEmptyContent(body);
    const answer = answerMessages(body, cache);
    const meta = { id: `msg_${randomBytes(12).toString('hex')}`, model: body.model };
    if (!body.stream) return reply.send(toMessage(answer, meta));

    const fault = (req as FaultedRequest).fault;
    reply.hijack(); // events go straight to the socket
    try {
      await writeSse(reply.raw, toStreamEvents(answer, meta), {
        delayMs: fault?.token_delay_ms ?? state.tokenDelayMs,
        cutAfter: fault?.cut_after_chunks,
        headers: { 'request-id': requestIdOf(req) },
      });
    } catch {
      reply.raw.destroy();
    }
  });

  app.post(COUNT_TOKENS_PATH, async (req, reply) => {
    if (!(await applyFault(req, reply, COUNT_TOKENS_PATH))) return reply;
    requireVersion(req);
    const body = parseOrThrow(anthropicCountTokensRequestSchema, req.body);
    return { input_tokens: countPromptTokens(promptMessages(body)) };
  });

  /** False when the request was answered (fault status) or the client left during injected latency. */
  async function applyFault(req: FastifyRequest, reply: FastifyReply, path: string): Promise<boolean> {
    const fault = state.faults.take({ model: modelOf(req.body), path }, reply);
    (req as FaultedRequest).fault = fault;
    if (fault?.latency_ms && !(await holdFor(fault.latency_ms, reply.raw))) return false;
    if (fault?.status) {
      await reply.code(fault.status).send(anthropicErrorBody(fault.status, requestIdOf(req), fault.message));
      return false;
    }
    return true;
  }
}

type FaultedRequest = FastifyRequest & { fault?: { token_delay_ms?: number; cut_after_chunks?: number } };

function requireVersion(req: FastifyRequest): void {
  if (!req.headers['anthropic-version']) {
    throw new GatewayError({ status: 400, code: 'invalid_request_error', message: 'anthropic-version: header is required' });
  }
}

function requestIdOf(req: FastifyRequest): string {
  const r = req as FastifyRequest & { anthropicRequestId?: string };
  r.anthropicRequestId ??= `req_${randomBytes(12).toString('hex')}`;
  return r.anthropicRequestId;
}

function modelOf(body: unknown): string | undefined {
  const model = body && typeof body === 'object' ? (body as { model?: unknown }).model : undefined;
  return typeof model === 'string' ? model : undefined;
}
