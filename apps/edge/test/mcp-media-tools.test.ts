/**
 * MCP tools of the capabilities whose specs take files or answer bytes (image edits, speech), on the
 * real pipeline and MCP routes with stand-in specs and a recording service: files given as base64
 * arrive at the service as the multipart endpoint's attachments, audio comes back as audio content,
 * images as image content. (Their real specs land with the media capability; these tools need no
 * code of their own then.)
 */
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { fixedShape, hashApiKey, type AnyEndpointSpec, type EndpointCall, type ModelInfo } from '@unigate/contracts';
import { createLogger } from '@unigate/platform';
import Fastify, { type FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AdmitRequest } from '@unigate/billing/reservations';
import { Authenticator } from '../src/auth/authenticator';
import { registerJsonBodyParser } from '../src/http/json-body';
import { registerRequestHooks } from '../src/http/request-id';
import { registerMcp } from '../src/mcp/register-mcp';
import { EndpointPipeline } from '../src/pipeline/endpoint-pipeline';
import { registerEndpoints } from '../src/pipeline/register-endpoints';
import { eventually } from './support/admin';
import { TEST_PRINCIPAL } from './support/principal';

const KEY = 'sk-media-tools-test';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
const MASK = Buffer.from([9, 8, 7]);

const imageEditSpec: AnyEndpointSpec = {
  name: 'test.images.edits',
  path: '/v1/test/images/edits',
  example: { model: 'edit-model', prompt: 'make it blue' },
  service: 'media',
  request: z.object({ model: z.string(), prompt: z.string().min(1), n: z.coerce.number().int().optional() }),
  response: z.object({ created: z.number(), data: z.array(z.object({ b64_json: z.string() })) }),
  kinds: ['image-edit'],
  units: ['images'],
  errorShape: fixedShape('B'),
  modelOf: (req) => req.model,
  isStream: () => false,
  plan: (_model, req) => ({ worstCase: { images: req.n ?? 1 } }),
  body: { kind: 'multipart', maxFileBytes: 1024, maxFiles: 4, maxFields: 10 },
};

const speechSpec: AnyEndpointSpec = {
  name: 'test.speech',
  path: '/v1/test/audio/speech',
  example: { model: 'voice-model', input: 'Hello' },
  service: 'media',
  request: z.object({ model: z.string(), input: z.string().min(1) }),
  response: z.unknown(),
  kinds: ['speech'],
  units: ['characters'],
  errorShape: fixedShape('B'),
  modelOf: (req) => req.model,
  isStream: () => false,
  plan: (_model, req) => ({ worstCase: { characters: req.input.length } }),
  binary: { contentType: () => 'audio/mpeg' },
};

const model = (id: string, kind: ModelInfo['kind']): ModelInfo => ({
  id,
  family: 'alpha',
  kind,
  owned_by: 'test',
  created: 0,
  prices: { input_per_mtok: 0, output_per_mtok: 0, per_image: 40_000, per_mchar: 15_000_000 },
});

describe('MCP tools of file and byte capabilities (stand-in specs on the real pipeline)', () => {
  let fastify: FastifyInstance;
  let client: Client;
  const calls: EndpointCall[] = [];
  const aborted: string[] = [];
  /** Resolves when the call is abandoned (its signal aborts), as an upstream call would be cut. */
  const abandoned = (signal: AbortSignal) =>
    new Promise<void>((resolve) =>
      signal.addEventListener('abort', () => {
        aborted.push(String(signal.reason));
        resolve();
      }),
    );
  const holds: number[] = [];

  beforeAll(async () => {
    const logger = createLogger('mcp-media-tools-test', 'silent');
    const specs = [imageEditSpec, speechSpec];
    const auth = new Authenticator({ authenticate: async (hash: string) => (hash === hashApiKey(KEY) ? TEST_PRINCIPAL : null) } as never);
    const catalog = {
      resolve: async (id: string) => ({ model: model(id, id === 'edit-model' ? 'image-edit' : 'speech'), channels: [] }),
      list: async () => [],
    };
    const pipeline = new EndpointPipeline({
      catalog,
      logger,
      reservations: {
        admit: async (req: AdmitRequest) => {
          holds.push(req.amount_micros);
          return { holdId: req.request_id, refund: async () => undefined, shrinkTo: async () => undefined, finish: async () => undefined };
        },
      } as never,
      services: {
        media: {
          call: async (call, signal) => {
            calls.push(call);
            if ((call.body as { prompt?: string }).prompt === 'slow') await abandoned(signal!);
            return { created: 1, output_format: 'png', data: [{ b64_json: 'aW1hZ2U=' }] };
          },
          async *stream(call) {
            calls.push(call);
            yield new Uint8Array([1, 2, 3]);
            yield new Uint8Array([4]);
          },
        },
      },
    });
    fastify = Fastify();
    registerJsonBodyParser(fastify);
    registerRequestHooks(fastify, logger);
    registerEndpoints(fastify, pipeline, auth, logger, specs);
    registerMcp(fastify, { auth, billing: {} as never, catalog, specs, logger });
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    const { port } = fastify.server.address() as AddressInfo;
    client = new Client({ name: 'media-tools-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${KEY}` } },
      }),
    );
  });
  afterAll(async () => {
    await client?.close();
    await fastify?.close();
  });

  const call = async (name: string, args: object) =>
    (await client.callTool({ name, arguments: args as Record<string, unknown> })) as CallToolResult;

  it('a multipart spec is a tool whose files argument takes base64', async () => {
    const { tools } = await client.listTools();
    const edit = tools.find((t) => t.name === 'test_images_edits')!;
    expect(Object.keys(edit.inputSchema.properties!)).toEqual(['model', 'prompt', 'n', 'files']);
    expect(edit.inputSchema.required).toEqual(['model', 'prompt', 'files']);
  });

  it('files given as a data: URI or plain base64 reach the service as the multipart attachments; the image answer is image content', async () => {
    calls.length = 0;
    holds.length = 0;
    const result = await call('test_images_edits', {
      model: 'edit-model',
      prompt: 'make it blue',
      n: 2,
      files: [
        { field: 'image', data: `data:image/png;base64,${PNG.toString('base64')}`, filename: 'cat.png' },
        { field: 'mask', data: MASK.toString('base64'), content_type: 'image/png' },
      ],
    });
    expect(result.isError).toBeFalsy();
    expect(result.content[1]).toEqual({ type: 'image', data: 'aW1hZ2U=', mimeType: 'image/png' });
    expect(calls).toHaveLength(1);
    expect(calls[0].body).toEqual({ model: 'edit-model', prompt: 'make it blue', n: 2 });
    expect(calls[0].files!.map((f) => [f.field, f.filename, f.content_type, Buffer.from(f.data).toString('hex')])).toEqual([
      ['image', 'cat.png', 'image/png', PNG.toString('hex')],
      ['mask', 'mask-2', 'image/png', MASK.toString('hex')],
    ]);
    // The hold is the worst case of two images at the model's price.
    expect(holds).toEqual([80_000]);
  });

  it("a file over the spec's size limit is the endpoint's 413, as a tool error", async () => {
    const result = await call('test_images_edits', {
      model: 'edit-model',
      prompt: 'x',
      files: [{ field: 'image', data: Buffer.alloc(2048).toString('base64') }],
    });
    expect(result.isError).toBe(true);
    expect(result._meta?.http_status).toBe(413);
  });

  it('files the schema refuses are -32602 Invalid params naming the file, and nothing is called', async () => {
    const before = holds.length;
    for (const [files, field] of [
      [[{ field: 'image', data: PNG.toString('base64') }, 'not a file'], 'files[1]'],
      [[{ field: 'image' }], 'files[0].data'],
      [[{ field: 'image', data: 'data:image/png,%zz' }], 'files[0].data'],
      [[{ field: 'image', data: 'data:image/png;base64,@@@' }], 'files[0].data'],
      [
        [
          { field: 'image', data: PNG.toString('base64') },
          { field: 'mask', data: 'not base64!' },
        ],
        'files[1].data',
      ],
    ] as const) {
      const err = await call('test_images_edits', { model: 'edit-model', prompt: 'x', files }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: -32602, message: expect.stringContaining(`'${field}'`) });
    }
    expect(holds.length).toBe(before);
  });

  it('a binary answer (speech) comes back as audio content with its MIME type', async () => {
    const result = await call('test_speech', { model: 'voice-model', input: 'Hello there' });
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: 'audio', data: Buffer.from([1, 2, 3, 4]).toString('base64'), mimeType: 'audio/mpeg' }]);
    expect(holds[holds.length - 1]).toBe(Math.ceil((11 * 15_000_000) / 1e6));
  });

  it('a client that leaves mid tool call abandons the service call, as an HTTP client leaving would', async () => {
    const { port } = fastify.server.address() as AddressInfo;
    // A connection of its own (no keep-alive pool), cut the way a client that leaves cuts it.
    const leaving = request(`http://127.0.0.1:${port}/mcp`, {
      method: 'POST',
      agent: false,
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    });
    leaving.on('error', () => undefined);
    leaving.end(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'test_images_edits',
          arguments: { model: 'edit-model', prompt: 'slow', files: [{ field: 'image', data: 'AAAA' }] },
        },
      }),
    );
    await eventually(async () => calls.some((c) => (c.body as { prompt?: string }).prompt === 'slow'), Boolean);
    leaving.destroy();
    await eventually(
      async () => aborted.length,
      (n) => n === 1,
    );
    expect(aborted[0]).toMatch(/client closed the connection/);
  });

  it('a validation failure is a tool error naming the field', async () => {
    const result = await call('test_speech', { model: 'voice-model', input: '' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: { param: 'input' } });
  });
});
