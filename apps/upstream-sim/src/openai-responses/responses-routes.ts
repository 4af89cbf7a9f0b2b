/**
 * The Responses protocol: POST /v1/responses (JSON or SSE). Answers come from the shared generator,
 * so a conversation gets the same text here as on chat completions. Faults set through /_sim/faults
 * apply before the request is validated; errors are OpenAI's (the server's default handler).
 */
import { randomBytes } from 'node:crypto';
import { parseOrThrow, responsesRequestSchema } from '@unigate/contracts';
import type { FastifyInstance } from 'fastify';
import { answerChat, replyUsage } from '../openai/openai-chat-answer';
import { openAiErrorBody } from '../openai/openai-errors';
import { checkChatProfile, chatProfileFor } from '../shared/chat-model-profiles';
import { holdFor, writeSse } from '../shared/sse-writer';
import type { SimState } from '../sim-state';
import { responsesPrompt } from './responses-prompt';
import { toResponse, toResponseEvents } from './responses-wire';

export const RESPONSES_PATH = '/v1/responses';

export async function responsesRoutes(app: FastifyInstance, opts: { state: SimState }): Promise<void> {
  const { state } = opts;

  app.post(RESPONSES_PATH, async (req, reply) => {
    const requestId = `req_${randomBytes(12).toString('hex')}`;
    reply.header('x-request-id', requestId);
    const model = (req.body as { model?: unknown } | null)?.model;
    const fault = state.faults.take({ model: typeof model === 'string' ? model : undefined, path: RESPONSES_PATH }, reply);
    if (fault?.latency_ms && !(await holdFor(fault.latency_ms, reply.raw))) return reply; // client gone
    if (fault?.status) return reply.code(fault.status).send(openAiErrorBody(fault.status, fault.message));

    const body = parseOrThrow(responsesRequestSchema, req.body);
    const prompt = responsesPrompt(body);
    const profile = chatProfileFor(body.model);
    checkChatProfile(profile, prompt.chat);
    const answer = answerChat(prompt.chat, { thinks: profile.alwaysThinks || prompt.thinks });
    const cached =
      profile.promptCacheMinTokens === undefined
        ? 0
        : state.promptCache.lookupAndRecord(body.model, prompt.chat.messages, profile.promptCacheMinTokens);
    const meta = {
      id: `resp_${randomBytes(12).toString('hex')}`,
      model: body.model,
      createdAt: Math.floor(Date.now() / 1000),
      tools: prompt.tools,
      summary: prompt.summary,
    };
    const measured = { ...answer, usage: replyUsage([answer], cached) };
    if (!body.stream) return reply.send(toResponse(measured, meta));

    reply.hijack(); // events go straight to the socket
    try {
      await writeSse(reply.raw, toResponseEvents(measured, meta), {
        delayMs: fault?.token_delay_ms ?? state.tokenDelayMs,
        cutAfter: fault?.cut_after_chunks,
        headers: { 'x-request-id': requestId },
      });
    } catch {
      reply.raw.destroy(); // headers are gone already; a cut connection is all a client can be told
    }
  });
}
