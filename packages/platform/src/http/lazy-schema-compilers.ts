/**
 * Fastify's `schemaController` option with its JSON-schema compilers (Ajv for validation,
 * fast-json-stringify for serialization) loaded on the first route that declares a schema, instead of
 * with every Fastify instance: 246 modules and 2–8 MiB of RSS in each process that never uses them.
 * Unigate's routes validate with zod (packages/contracts), so the edge and the services never do.
 *
 * Fastify treats a compiler given this way as custom: a route's `headers` schema is then passed to it
 * as written, not with its keys lower-cased, so write header names lower-case in one.
 */
import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

type Compilers = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type AnyBuilder = (...args: unknown[]) => unknown;

// Fastify's own dependencies, resolved from Fastify as it would.
const fromFastify = createRequire(require.resolve('fastify'));

/** A builder made by `module`'s selector the first time Fastify asks for one. */
function lazyBuilder(module: string): AnyBuilder {
  let build: AnyBuilder | undefined;
  return (...args) => {
    build ??= (fromFastify(module) as () => AnyBuilder)();
    return build(...args);
  };
}

/** A fresh option per Fastify instance (each keeps its compilers' caches). */
export function lazySchemaCompilers(): NonNullable<FastifyServerOptions['schemaController']> {
  return {
    compilersFactory: {
      buildValidator: lazyBuilder('@fastify/ajv-compiler') as Compilers['buildValidator'],
      buildSerializer: lazyBuilder('@fastify/fast-json-stringify-compiler') as Compilers['buildSerializer'],
    },
  };
}
