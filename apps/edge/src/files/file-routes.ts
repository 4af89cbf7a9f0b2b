/**
 * GET /v1/files/{key}: results the gateway keeps (alpha image results) served from the object store
 * every replica reads, by signed time-limited link only — no API key, like the vendor's own links.
 * An altered or expired link is a 403 in Shape A (the alpha family's); an expired object is deleted
 * on the spot (the sweeper gets the rest). A `Range` asks for part of it (206; byte-range.ts).
 */
import { GatewayError, renderShapeA } from '@unigate/contracts';
import { FILES_PATH, OBJECT_KEY, type LinkSigner, type ObjectStore } from '@unigate/platform';
import type { FastifyInstance } from 'fastify';
import { byteRange } from './byte-range';

export interface FileRoutesOptions {
  store: ObjectStore;
  signer: LinkSigner;
}

export function registerFileRoutes(fastify: FastifyInstance, opts: FileRoutesOptions): void {
  fastify.get<{ Params: { key: string }; Querystring: { expires?: string; signature?: string } }>(
    `${FILES_PATH}/:key`,
    async (request, reply) => {
      const { key } = request.params;
      const refuse = (status: number, code: string, message: string) =>
        reply
          .status(status)
          .header('x-should-retry', 'false')
          .send(renderShapeA(new GatewayError({ status, code, message }), String(request.id)));
      if (!OBJECT_KEY.test(key)) return refuse(404, 'NotFound', 'No such file.');
      const verdict = opts.signer.check(key, request.query.expires, request.query.signature);
      if (verdict === 'invalid') return refuse(403, 'AccessDenied', 'The link is not valid.');
      if (verdict === 'expired') {
        await opts.store.delete(key);
        return refuse(403, 'AccessDenied', 'The link has expired (result links are valid for 24 hours).');
      }
      const object = await opts.store.get(key);
      if (!object || object.expiresAt <= Date.now()) return refuse(404, 'NotFound', 'The file is gone.');
      void reply.type(object.contentType).header('cache-control', 'private, max-age=3600').header('accept-ranges', 'bytes');
      const size = object.data.length;
      const range = byteRange(request.headers.range, size);
      if (range === 'unsatisfiable') return reply.status(416).header('content-range', `bytes */${size}`).send();
      if (!range) return reply.send(object.data);
      return reply
        .status(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
        .send(object.data.subarray(range.start, range.end + 1));
    },
  );
}
