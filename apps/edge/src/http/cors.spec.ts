import Fastify from 'fastify';

import { type CorsOrigins, corsOriginsEnv, registerCors } from './cors';

describe('UNIGATE_CORS_ORIGINS', () => {
  it('is * unset or blank, off when off, else the set of origins listed', () => {
    expect(corsOriginsEnv.parse(undefined)).toBe('*');
    expect(corsOriginsEnv.parse(' ')).toBe('*');
    expect(corsOriginsEnv.parse('off')).toBe('off');
    expect(corsOriginsEnv.parse('https://app.example, http://127.0.0.1:3000,')).toEqual(
      new Set(['https://app.example', 'http://127.0.0.1:3000']),
    );
  });

  it('refuses what is not an origin, naming it', () => {
    for (const bad of ['https://app.example/chat', 'app.example', 'ftp://files.example', 'https://app.example:443']) {
      const parsed = corsOriginsEnv.safeParse(`https://ok.example,${bad}`);
      expect([bad, parsed.success, parsed.error?.issues[0].message]).toEqual([
        bad,
        false,
        expect.stringContaining(`'${bad}' is not an origin`),
      ]);
    }
  });
});

describe('registerCors', () => {
  const serve = async (origins: CorsOrigins) => {
    const app = Fastify();
    registerCors(app, origins);
    app.get('/v1/models', async () => ({ data: [] }));
    await app.ready();
    return app;
  };
  const preflight = { 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' };

  it('answers a preflight and a request of an allowed origin, varying on what the answer depends on', async () => {
    const listed = await serve(new Set(['https://app.example']));
    const pre = await listed.inject({ method: 'OPTIONS', url: '/v1/models', headers: { origin: 'https://app.example', ...preflight } });
    expect([pre.statusCode, pre.headers['access-control-allow-origin'], pre.headers.vary]).toEqual([
      204,
      'https://app.example',
      'Origin, Access-Control-Request-Headers',
    ]);
    expect(pre.headers['access-control-allow-headers']).toBe('authorization');
    const get = await listed.inject({ url: '/v1/models', headers: { origin: 'https://app.example' } });
    expect([get.headers['access-control-allow-origin'], get.headers.vary]).toEqual(['https://app.example', 'Origin']);
    const other = await listed.inject({ url: '/v1/models', headers: { origin: 'https://evil.example' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    await listed.close();

    const any = await serve('*');
    const anyPre = await any.inject({ method: 'OPTIONS', url: '/v1/models', headers: { origin: 'https://a.example', ...preflight } });
    expect([anyPre.headers['access-control-allow-origin'], anyPre.headers.vary]).toEqual(['*', 'Access-Control-Request-Headers']);
    const anyGet = await any.inject({ url: '/v1/models', headers: { origin: 'https://a.example' } });
    expect([anyGet.headers['access-control-allow-origin'], anyGet.headers.vary]).toEqual(['*', undefined]);
    await any.close();
  });
});
