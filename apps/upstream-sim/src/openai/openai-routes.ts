/**
 * The OpenAI protocol: POST /v1/chat/completions (JSON or SSE) and GET /v1/models. Faults set through
 * /_sim/faults apply before the request is even validated, the way an overloaded upstream fails.
 */
import { randomBytes } from 'node:crypto';
import { chatCompletionRequestSchema, parseOrThrow } from '@unigate/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { FaultRule } from '../control/faults';
import { checkChatProfile, chatProfileFor } from '../shared/chat-model-profiles';
import { holdFor, writeEndless, writeSse } from '../shared/sse-writer';
import type { SimState } from '../sim-state';
import { answerChat, replyUsage } from './openai-chat-answer';
import { toChunkEvents, toCompletion } from './openai-chat-wire';
import { openAiErrorBody } from './openai-errors';
import { modelList, modelObject } from './openai-models';

const CHAT_PATH = '/v1/chat/completions';

export async function openAiRoutes(app: FastifyInstance, opts: { state: SimState }): Promise<void> {
  const { state } = opts;

  app.get('/v1/models', async () => modelList());
  app.get<{ Params: { id: string } }>('/v1/models/:id', async (req) => modelObject(req.params.id));

  app.post(CHAT_PATH, async (req, reply) => {
    const requestId = `req_${randomBytes(12).toString('hex')}`;
    reply.header('x-request-id', requestId);

    const fault = state.faults.take({ model: modelOf(req.body), path: CHAT_PATH }, reply);
    if (fault?.latency_ms && !(await holdFor(fault.latency_ms, reply.raw))) return reply; // client gone
    if (fault?.status) return sendFault(reply, fault);

    const body = parseOrThrow(chatCompletionRequestSchema, req.body);
    if (fault?.endless_body) {
      reply.hijack();
      if (body.stream)
        return writeEndless(reply.raw, 'text/event-stream', 'data: {"id":"chatcmpl-endless","choices":[{"index":0,"delta":{"content":"');
      return writeEndless(
        reply.raw,
        'application/json',
        '{"id":"chatcmpl-endless","choices":[{"index":0,"message":{"role":"assistant","content":"',
      );
    }
    const profile = chatProfileFor(body.model);
    checkChatProfile(profile, body);
    const answers = Array.from({ length: body.n ?? 1 }, (_, candidate) =>
      answerChat(body, { candidate, thinks: profile.alwaysThinks ? true : undefined }),
    );
    const cached =
      profile.promptCacheMinTokens === undefined
        ? 0
        : state.promptCache.lookupAndRecord(body.model, body.messages, profile.promptCacheMinTokens);
    const usage = replyUsage(answers, cached);
    const meta = { id: `chatcmpl-${randomBytes(12).toString('hex')}`, created: Math.floor(Date.now() / 1000), model: body.model };

    if (!body.stream) return reply.send(toCompletion(answers, meta, usage));

    // Hijack so chunks go straight to the socket; fastify would otherwise wait for a whole payload.
    reply.hijack();
    const includeUsage = body.stream_options?.include_usage === true;
    try {
      await writeSse(reply.raw, toChunkEvents(answers, meta, includeUsage, usage), {
        delayMs: fault?.token_delay_ms ?? state.tokenDelayMs,
        cutAfter: fault?.cut_after_chunks,
        headers: { 'x-request-id': requestId },
      });
    } catch {
      reply.raw.destroy(); // headers are gone already; a cut connection is all a client can be told
    }
  });
}

function modelOf(body: unknown): string | undefined {
  const model = body && typeof body === 'object' ? (body as { model?: unknown }).model : undefined;
  return typeof model === 'string' ? model : undefined;
}

function sendFault(reply: FastifyReply, fault: FaultRule) {
  const status = fault.status as number;
  return reply.code(status).send(openAiErrorBody(status, fault.message));
}
