/**
 * One request, one trace: the edge's HTTP span, its gRPC call, the chat service's handling and its
 * upstream call, the Kafka publish and billing's consumption of the usage event all share a trace id,
 * and the next request on the same gRPC session has a trace of its own.
 */
import OpenAI from 'openai';
import { eventually } from './support/admin';
import { tracedStack } from './support/otlp-collector';
import { startDistributed } from './support/stacks';

describe('distributed tracing', () => {
  const traced = tracedStack(startDistributed);

  it('follows each chat request from the edge through gRPC and Kafka to billing in a trace of its own', async () => {
    const { stack, collector } = traced;
    const client = new OpenAI({ baseURL: stack.baseURL, apiKey: stack.apiKey, maxRetries: 0 });
    const seen = new Set<string>();
    // Two requests one after another: the second reuses the first one's gRPC session and must still
    // get a whole trace of its own.
    for (const content of ['trace me', 'trace me again']) {
      const { response } = await client.chat.completions
        .create({ model: 'sigma-sonnet-4-6', messages: [{ role: 'user', content }] })
        .withResponse();
      expect(response.headers.get('x-request-id')).toMatch(/^req_/);

      const edgeServer = await eventually(
        async () =>
          collector.spans.find(
            (s) =>
              s.service === 'unigate-edge' &&
              s.kind === 2 &&
              !seen.has(s.traceId) &&
              String(s.attributes['url.path'] ?? s.attributes['http.target'] ?? '').includes('/v1/chat/completions'),
          ),
        (s) => s !== undefined,
      );
      const traceId = edgeServer!.traceId;
      seen.add(traceId);
      const inTrace = () => collector.spans.filter((s) => s.traceId === traceId);
      const has = (service: string, kind: number) => inTrace().some((s) => s.service === service && s.kind === kind);
      // SERVER=2, CLIENT=3, PRODUCER=4, CONSUMER=5
      await eventually(
        async () => ({
          grpcOut: has('unigate-edge', 3),
          chatIn: has('unigate-chat', 2),
          upstream: has('unigate-chat', 3),
          published: has('unigate-chat', 4),
          consumed: has('unigate-billing', 5),
        }),
        (v) => Object.values(v).every(Boolean),
        20_000,
      );
      // The call went on a pooled session: the spans are this call's own, and chat's work is inside them.
      const edgeClient = inTrace().find((s) => s.service === 'unigate-edge' && s.kind === 3 && s.attributes['rpc.method'] === 'Session');
      const chatServers = inTrace().filter((s) => s.service === 'unigate-chat' && s.kind === 2);
      expect(chatServers).toHaveLength(1);
      expect(chatServers[0].attributes).toMatchObject({ 'rpc.method': 'Session', 'unigate.endpoint': 'chat.completions' });
      expect(chatServers[0].parentSpanId).toBe(edgeClient?.spanId);
      const upstream = inTrace().find((s) => s.service === 'unigate-chat' && s.kind === 3);
      expect(upstream?.parentSpanId).toBe(chatServers[0].spanId);
      // Billing names the topic as the publisher's span does: the name Kafka knows, prefix and all.
      const published = inTrace().find((s) => s.service === 'unigate-chat' && s.kind === 4);
      const consumed = inTrace().find((s) => s.service === 'unigate-billing' && s.kind === 5);
      expect(published?.attributes['messaging.destination.name']).toMatch(/usage\.recorded$/);
      expect(consumed?.attributes['messaging.destination.name']).toBe(published?.attributes['messaging.destination.name']);
    }
  });
});
