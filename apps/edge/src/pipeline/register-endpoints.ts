/**
 * Every endpoint spec the deployment serves becomes one Fastify route on the pipeline. Routes are
 * registered on Fastify directly (not as Nest controllers): the pipeline is the whole handler.
 * Multipart endpoints (image edits) get their own plugin context with @fastify/multipart: its hooks
 * (a `close` listener and a temp-file cleanup on every request) then run on those routes only.
 */
import multipart from '@fastify/multipart';
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
  const route = (scope: FastifyInstance, spec: AnyEndpointSpec) =>
    scope.route({
      method: 'POST',
      url: spec.path,
      config: { spec },
      // Before the body is read: a bad key is a 401 whatever the body, and costs no body upload. A
      // callback hook: the key cache usually answers at once, and an async hook would cost a promise
      // and a microtask turn on every request.
      onRequest: (request: FastifyRequest, _reply, done) => {
        const accepted = (principal: KeyPrincipal) => {
          request.principal = principal;
          done();
        };
        let principal: KeyPrincipal | Promise<KeyPrincipal>;
        try {
          principal = auth.authenticate(request, { allowXApiKey: spec.acceptsXApiKey });
        } catch (err) {
          return done(err as Error);
        }
        if (principal instanceof Promise) principal.then(accepted, done);
        else accepted(principal);
      },
      handler: (request, reply) => pipeline.handle(spec, request, reply),
    });
  const served = specs.filter((spec) => pipeline.serves(spec));
  const isMultipart = (spec: AnyEndpointSpec) => spec.body?.kind === 'multipart';
  for (const spec of served.filter((s) => !isMultipart(s))) route(fastify, spec);
  const multipartSpecs = served.filter(isMultipart);
  if (multipartSpecs.length === 0) return;
  void fastify.register(async (scope) => {
    // A body that is not multipart is read and set aside, not parsed as JSON: the endpoint then answers
    // 400 invalid_content_type whatever it is (a form-urlencoded body was answered invalid_json).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));
    await scope.register(multipart);
    for (const spec of multipartSpecs) route(scope, spec);
  });
}
