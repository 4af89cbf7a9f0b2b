/**
 * GET and DELETE /v1/responses/{id} (OpenAI's Responses API): a stored response as it was answered,
 * and its deletion, from the chat service, in the caller's account; another account's is a 404.
 * Errors in the Responses endpoint's Shape B.
 */
import { errors, responsesSpec, type StoredResponsePort } from '@unigate/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Authenticator } from '../auth/authenticator';

export function registerStoredResponseRoutes(fastify: FastifyInstance, responses: StoredResponsePort, auth: Authenticator): void {
  const url = `${responsesSpec.path}/:id`;
  const authenticate = async (request: FastifyRequest) => {
    request.principal = await auth.authenticate(request, {});
  };
  fastify.route<{ Params: { id: string }; Querystring: { stream?: string } }>({
    method: 'GET',
    url,
    config: { spec: responsesSpec },
    onRequest: authenticate,
    handler: async (request) => {
      // OpenAI replays a background response's events with ?stream=true; a stored one here is finished.
      if (request.query.stream === 'true') {
        throw errors.invalidRequest('Streaming a stored response is not supported; omit `stream` to get the response.', 'stream');
      }
      return responses.retrieve(request.principal!.account_id, request.params.id);
    },
  });
  fastify.route<{ Params: { id: string } }>({
    method: 'DELETE',
    url,
    config: { spec: responsesSpec },
    onRequest: authenticate,
    handler: async (request) => {
      await responses.remove(request.principal!.account_id, request.params.id);
      return { id: request.params.id, object: 'response', deleted: true };
    },
  });
}
