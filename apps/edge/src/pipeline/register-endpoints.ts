/**
 * Every endpoint spec the deployment serves becomes one Fastify route on the pipeline. Routes are
 * registered on Fastify directly (not as Nest controllers): the pipeline is the whole handler.
 */
import { ENDPOINTS, type AnyEndpointSpec, type KeyPrincipal } from '@unigate/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from '@unigate/platform';
import type { Authenticator } from '../auth/authenticator';
import { replyWithError } from '../http/error-renderer';
import type { EndpointPipeline } from './endpoint-pipeline';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller, once the route's authentication hook accepted its key. */
    principal?: KeyPrincipal;
  }
  interface FastifyContextConfig {
    /** The endpoint spec a pipeline route serves (the error renderer reads its shape). */
    spec?: AnyEndpointSpec;
  }
}

export function registerEndpoints(
  fastify: FastifyInstance,
  pipeline: EndpointPipeline,
  auth: Authenticator,
  logger: Logger,
  specs = ENDPOINTS,
): void {
  // A route takes the error handler in force when it is registered: this one renders the failures of
  // the authentication hook and of body parsing in the endpoint's shape.
  fastify.setErrorHandler((err, request, reply) => replyWithError(err, request, reply, logger));
  for (const spec of specs) {
    if (!pipeline.serves(spec)) continue;
    fastify.route({
      method: 'POST',
      url: spec.path,
      config: { spec },
      // Before the body is read: a bad key is a 401 whatever the body, and costs no body upload.
      onRequest: async (request: FastifyRequest) => {
        request.principal = await auth.authenticate(request, { allowXApiKey: spec.acceptsXApiKey });
      },
      handler: (request, reply) => pipeline.handle(spec, request, reply),
    });
  }
}
