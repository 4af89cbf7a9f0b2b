/**
 * http/lazy-schema-compilers.ts in a real process: Fastify, and Nest's Fastify adapter as the services
 * create it, load neither Ajv nor fast-json-stringify until a route declares a schema; a route that
 * does still has its body validated and its answer serialized by them. Without the option the same
 * app loads both at once, so the check is seen to detect them. Counted from the module cache.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '@unigate/testing';

const PLATFORM = join(ROOT, 'packages', 'platform');

// argv: the platform's dist index, 'lazy' or 'stock', and what to build: 'fastify' or 'nest'.
const PROBE = `
require('reflect-metadata');
const [platform, mode, kind] = process.argv.slice(1);
const { lazySchemaCompilers } = require(platform);
// The compilers (Fastify's error serializer always loads fast-json-stringify's small runtime, lib/serializer.js).
const loaded = () => ['ajv/', 'fast-json-stringify/index.js'].filter((part) => Object.keys(require.cache).some((m) => m.includes('/node_modules/' + part)));
const options = mode === 'lazy' ? { schemaController: lazySchemaCompilers() } : {};
(async () => {
  const out = {};
  if (kind === 'nest') {
    const { Module } = require('@nestjs/common');
    const { NestFactory } = require('@nestjs/core');
    const { FastifyAdapter } = require('@nestjs/platform-fastify');
    class Root {}
    Module({})(Root);
    const app = await NestFactory.create(Root, new FastifyAdapter(options), { logger: false });
    await app.init();
    app.getHttpAdapter().getInstance().get('/plain', async () => ({ ok: true }));
    out.status = (await app.getHttpAdapter().getInstance().inject('/plain')).statusCode;
    out.loaded = loaded();
    await app.close();
  } else {
    const plain = require('fastify')(options);
    plain.get('/plain', async () => ({ ok: true }));
    out.status = (await plain.inject('/plain')).statusCode;
    out.loaded = loaded();
    const typed = require('fastify')(mode === 'lazy' ? { schemaController: lazySchemaCompilers() } : {});
    typed.post('/typed', {
      schema: {
        body: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } },
        response: { 200: { type: 'object', properties: { n: { type: 'integer' } } } },
      },
    }, async (req) => ({ n: req.body.n, secret: 'dropped by the response schema' }));
    const bad = await typed.inject({ method: 'POST', url: '/typed', payload: { n: 'x' } });
    const good = await typed.inject({ method: 'POST', url: '/typed', payload: { n: 7 } });
    out.bad = [bad.statusCode, bad.json().message];
    out.good = [good.statusCode, good.body];
    out.loadedAfterSchema = loaded();
  }
  process.stdout.write(JSON.stringify(out));
})();
`;

const probe = (mode: 'lazy' | 'stock', kind: 'fastify' | 'nest') =>
  JSON.parse(
    execFileSync(process.execPath, ['-e', PROBE, join(PLATFORM, 'dist', 'index.js'), mode, kind], {
      cwd: PLATFORM,
      encoding: 'utf8',
      timeout: 60_000,
    }),
  );

describe('lazySchemaCompilers', () => {
  it('leaves Ajv and fast-json-stringify unloaded until a route has a schema, which is then validated and serialized by them', () => {
    const out = probe('lazy', 'fastify');
    expect(out.status).toBe(200);
    expect(out.loaded).toEqual([]);
    expect(out.bad).toEqual([400, 'body/n must be integer']);
    expect(out.good).toEqual([200, '{"n":7}']);
    expect(out.loadedAfterSchema).toEqual(['ajv/', 'fast-json-stringify/index.js']);
  });

  it('answers a schema route exactly as stock Fastify does, which loads both with the instance', () => {
    const out = probe('stock', 'fastify');
    expect(out.loaded).toEqual(['ajv/', 'fast-json-stringify/index.js']);
    expect(out.bad).toEqual([400, 'body/n must be integer']);
    expect(out.good).toEqual([200, '{"n":7}']);
  });

  it("keeps them out of a Nest app on Fastify, as the services create theirs; Nest's stock adapter loads them", () => {
    expect(probe('lazy', 'nest')).toEqual({ status: 200, loaded: [] });
    expect(probe('stock', 'nest')).toEqual({ status: 200, loaded: ['ajv/', 'fast-json-stringify/index.js'] });
  });
});
