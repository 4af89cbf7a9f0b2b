/**
 * GET /v1/videos/generations/{id} (SPEC.md §4): the caller's task by platform or upstream id, from
 * the video service; another account's task is a 404. Errors in the video family's Shape A.
 */
import { lookupPath, videoGenerationsSpec, type BillingPort, type VideoTaskPort } from '@unigate/contracts';
import type { FastifyInstance } from 'fastify';
import { BearerSecret } from '@unigate/platform';
import { checkAdminToken } from '../auth/admin.guard';
import type { Authenticator } from '../auth/authenticator';

export function registerVideoTaskRoutes(
  fastify: FastifyInstance,
  tasks: VideoTaskPort,
  billing: BillingPort,
  auth: Authenticator,
  adminToken: string,
): void {
  fastify.route<{ Params: { id: string } }>({
    method: 'GET',
    url: lookupPath(videoGenerationsSpec).replace('{id}', ':id'),
    config: { spec: videoGenerationsSpec },
    onRequest: auth.onRequest,
    handler: async (request) => {
      const task = await tasks.lookup(request.principal!.account_id, request.params.id);
      return videoGenerationsSpec.localize!(task, `${request.protocol}://${request.host}`);
    },
  });
  registerWebhookSecretRoute(fastify, tasks, billing, adminToken);
}

/**
 * Admin API: an account's webhook signing secret (docs/video.md shows how receivers verify with it).
 * The secret is made on first use, so the account is looked up first: an unknown one is a 404 like
 * on every other account route, not a secret stored for an account that does not exist.
 */
export function registerWebhookSecretRoute(fastify: FastifyInstance, tasks: VideoTaskPort, billing: BillingPort, adminToken: string): void {
  const secret = new BearerSecret(adminToken);
  fastify.get<{ Params: { id: string } }>('/admin/v1/accounts/:id/webhook-secret', async (request) => {
    checkAdminToken(request, secret);
    const { id } = await billing.getAccount(request.params.id);
    return { account_id: id, secret: await tasks.webhookSecret(id) };
  });
}
