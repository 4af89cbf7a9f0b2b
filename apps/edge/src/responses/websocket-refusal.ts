/**
 * Codex opens the Responses API over a WebSocket first (`GET /v1/responses` with `Upgrade:
 * websocket`) when it takes the gateway for OpenAI (`openai_base_url`), and goes over to HTTP at once
 * only when the handshake is answered 426 Upgrade Required; any other answer costs it five reconnects
 * and then the turn. The gateway serves the Responses API over HTTP and SSE only, so it answers 426.
 * A plain GET is the unknown route it always was.
 */
import { GatewayError, responsesSpec } from '@unigate/contracts';
import type { FastifyInstance } from 'fastify';

export function registerResponsesWebSocketRefusal(fastify: FastifyInstance): void {
  fastify.route({
    method: 'GET',
    url: responsesSpec.path,
    config: { spec: responsesSpec },
    handler: async (request, reply) => {
      if (!/\bwebsocket\b/i.test(request.headers.upgrade ?? '')) return reply.callNotFound();
      void reply.header('connection', 'close');
      throw new GatewayError({
        status: 426,
        code: 'websocket_not_supported',
        message: 'The Responses API is served over HTTP here, not WebSocket: send POST /v1/responses (with "stream": true for events).',
      });
    },
  });
}
