/**
 * GET and DELETE /v1/responses/{id} and GET /v1/responses/{id}/input_items (OpenAI's Responses API):
 * a stored response as it was answered, its deletion, and the items it was answered from, from the
 * chat service, in the caller's account; another account's is a 404. Errors in the Responses
 * endpoint's Shape B.
 */
import { errors, inputItemsQuerySchema, parseOrThrow, responsesSpec, type StoredResponsePort } from '@unigate/contracts';
import type { FastifyInstance } from 'fastify';
import type { Authenticator } from '../auth/authenticator';

export function registerStoredResponseRoutes(fastify: FastifyInstance, responses: StoredResponsePort, auth: Authenticator): void {
  const url = `${responsesSpec.path}/:id`;
  fastify.route<{ Params: { id: string }; Querystring: { stream?: string } }>({
    method: 'GET',
    url,
    config: { spec: responsesSpec },
    onRequest: auth.onRequest,
    handler: async (request) => {
      // OpenAI replays a background response's events with ?stream=true; a stored one here is finished.
      if (request.query.stream === 'true') {
        throw errors.invalidRequest('Streaming a stored response is not supported; omit `stream` to get the response.', 'stream');
      }
      return responses.retrieve(request.principal!.account_id, request.params.id);
    },
  });
  fastify.route<{ Params: { id: string }; Querystring: unknown }>({
    method: 'GET',
    url: `${url}/input_items`,
    config: { spec: responsesSpec },
    onRequest: auth.onRequest,
    handler: async (request) => {
      // parseOrThrow: a wrong type says so ("expected string, got array"), not "… is required".
      const query = parseOrThrow(inputItemsQuerySchema, request.query);
      return responses.inputItems(request.principal!.account_id, request.params.id, query);
    },
  });
  fastify.route<{ Params: { id: string } }>({
    method: 'DELETE',
    url,
    config: { spec: responsesSpec },
    onRequest: auth.onRequest,
    handler: async (request) => {
      await responses.remove(request.principal!.account_id, request.params.id);
      return { id: request.params.id, object: 'response', deleted: true };
    },
  });
}
