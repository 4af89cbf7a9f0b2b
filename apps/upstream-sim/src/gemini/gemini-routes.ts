/**
 * The Gemini generateContent protocol: POST /v1beta/models/{model}:generateContent (JSON) and
 * :streamGenerateContent (SSE with `?alt=sse`, else one JSON array). Answers come from the shared
 * generator, so a conversation gets the same text here as on the OpenAI endpoint. Faults set through
 * /_sim/faults apply first (matched by the model in the path and the path without its query), and
 * every error — a fault, a bad request — is rendered in Gemini's error shape.
 */
import { randomBytes } from 'node:crypto';
import { GatewayError } from '@unigate/contracts';
import type { FastifyError, FastifyInstance } from 'fastify';
import { answerChat, replyUsage } from '../openai/openai-chat-answer';
import { checkChatProfile, chatProfileFor } from '../shared/chat-model-profiles';
import { holdFor, writeSse } from '../shared/sse-writer';
import type { SimState } from '../sim-state';
import { geminiErrorBody } from './gemini-errors';
import { parseGeminiRequest } from './gemini-request';
import { toGeminiChunkEvents, toGenerateContentResponse } from './gemini-wire';

const METHODS = new Set(['generateContent', 'streamGenerateContent']);

export async function geminiRoutes(app: FastifyInstance, opts: { state: SimState }): Promise<void> {
  const { state } = opts;

  // Encapsulated: Gemini clients parse Gemini's error body, not OpenAI's.
  app.setErrorHandler((err: FastifyError | GatewayError, _req, reply) => {
    if (GatewayError.is(err)) return reply.code(err.status).send(geminiErrorBody(err.status, err.message));
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    return reply.code(status).send(geminiErrorBody(status, status === 500 ? undefined : `Invalid JSON payload received. ${err.message}`));
  });

  app.post<{ Params: { call: string }; Querystring: { alt?: string } }>('/v1beta/models/:call', async (req, reply) => {
    const colon = req.params.call.lastIndexOf(':');
    const model = colon < 0 ? req.params.call : req.params.call.slice(0, colon);
    const method = colon < 0 ? '' : req.params.call.slice(colon + 1);
    if (!METHODS.has(method))
      return reply.code(404).send(geminiErrorBody(404, `Method ${method || '(none)'} is not supported for models/${model}.`));

    const fault = state.faults.take({ model, path: req.url.split('?')[0] }, reply);
    if (fault?.latency_ms && !(await holdFor(fault.latency_ms, reply.raw))) return reply; // client gone
    if (fault?.status) return reply.code(fault.status).send(geminiErrorBody(fault.status, fault.message));

    const { chat, thinks, showThoughts } = parseGeminiRequest(model, req.body);
    const profile = chatProfileFor(model);
    checkChatProfile(profile, chat);
    const answers = Array.from({ length: chat.n ?? 1 }, (_, candidate) => answerChat(chat, { candidate, thinks }));
    const cached =
      profile.promptCacheMinTokens === undefined
        ? 0
        : state.promptCache.lookupAndRecord(model, chat.messages, profile.promptCacheMinTokens);
    const usage = replyUsage(answers, cached);
    const meta = { responseId: randomBytes(12).toString('base64url'), modelVersion: model, showThoughts };

    if (method === 'generateContent') return reply.send(toGenerateContentResponse(answers, meta, usage));
    if (req.query.alt !== 'sse') {
      // Without alt=sse Gemini streams one JSON array of the same chunks.
      return reply.send([...toGeminiChunkEvents(answers, meta, usage)].map((e) => JSON.parse(e.data) as unknown));
    }
    reply.hijack(); // chunks go straight to the socket
    try {
      await writeSse(reply.raw, toGeminiChunkEvents(answers, meta, usage), {
        delayMs: fault?.token_delay_ms ?? state.tokenDelayMs,
        cutAfter: fault?.cut_after_chunks,
      });
    } catch {
      reply.raw.destroy(); // headers are gone already; a cut connection is all a client can be told
    }
  });
}
