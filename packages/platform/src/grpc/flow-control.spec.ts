/**
 * The HTTP/2 flow-control windows of internal connections, as the peer sees them on the wire: a raw
 * HTTP/2 client against startGrpcServer's server (what it may send: a request to a service; with
 * HTTP/2's 64 KiB a 60 KB coding-agent request stopped halfway for the service's WINDOW_UPDATE), and a
 * raw HTTP/2 server behind grpcClient (what it may send back: an answer, which a slow client may leave
 * unread in the edge up to that window).
 */
import { once } from 'node:events';
import { connect, createServer, type ClientHttp2Session, type Http2Session, type ServerHttp2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { waitFor } from '@unigate/testing';
import { grpcClient } from './grpc-client';
import { GRPC_FLOW_CONTROL_WINDOW_BYTES, startGrpcServer } from './grpc-server';

/** HTTP/2's initial window, stream and connection alike. */
const HTTP2_DEFAULT_WINDOW = 65_535;

/**
 * The windows the peer of `session` granted it: per stream (its SETTINGS) and for the connection.
 * `settled` is the session's first 'remoteSettings', listened for from the session's start.
 */
async function grantedWindows(session: Http2Session, settled: Promise<unknown>): Promise<{ stream: number; connection: number }> {
  await settled;
  // A widened connection window arrives as a WINDOW_UPDATE right after the SETTINGS: give it time.
  for (let i = 0; i < 20 && (session.state.remoteWindowSize ?? 0) < GRPC_FLOW_CONTROL_WINDOW_BYTES; i++)
    await new Promise((r) => setTimeout(r, 10));
  return { stream: session.remoteSettings.initialWindowSize ?? 0, connection: session.state.remoteWindowSize ?? 0 };
}

test("a service's server grants its callers the wide window, per stream and per connection", async () => {
  const server = await startGrpcServer('127.0.0.1:0', {});
  let session: ClientHttp2Session | undefined;
  try {
    session = connect(`http://127.0.0.1:${server.port}`);
    expect(await grantedWindows(session, once(session, 'remoteSettings'))).toEqual({
      stream: GRPC_FLOW_CONTROL_WINDOW_BYTES,
      connection: GRPC_FLOW_CONTROL_WINDOW_BYTES,
    });
  } finally {
    session?.destroy();
    await server.close(0);
  }
});

test("a client keeps HTTP/2's default window for answers, per stream and per connection", async () => {
  const h2 = createServer();
  const sessions: Array<{ session: ServerHttp2Session; settled: Promise<unknown> }> = [];
  h2.on('session', (session) => sessions.push({ session, settled: once(session, 'remoteSettings') }));
  h2.listen(0, '127.0.0.1');
  await once(h2, 'listening');
  const client = grpcClient('catalog', `127.0.0.1:${(h2.address() as AddressInfo).port}`);
  try {
    // Connects; the raw server never answers a call, but the connection is all this needs.
    client.waitForReady(Date.now() + 5_000, () => undefined);
    await waitFor('the client to connect', () => sessions.length > 0, 2_000, 10);
    expect(sessions).toHaveLength(1);
    expect(await grantedWindows(sessions[0].session, sessions[0].settled)).toEqual({
      stream: HTTP2_DEFAULT_WINDOW,
      connection: HTTP2_DEFAULT_WINDOW,
    });
  } finally {
    client.close();
    for (const s of sessions) s.session.destroy();
    h2.close();
  }
});
