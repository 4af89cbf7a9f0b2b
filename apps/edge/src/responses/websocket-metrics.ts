/**
 * Connections of the Responses API's WebSocket mode: open now, and accepted since the start. Defined
 * here, not with the shared metrics, so that only processes serving the socket (edges, standalone)
 * report them: an unlabelled gauge shows 0 on every process that registers it.
 */
import { metricsRegistry } from '@unigate/platform';
import { Counter, Gauge } from 'prom-client';

export const websocketConnections = new Gauge({
  name: 'unigate_websocket_connections',
  help: 'Responses API WebSocket connections open on this edge',
  registers: [metricsRegistry],
});

export const websocketConnectionsTotal = new Counter({
  name: 'unigate_websocket_connections_total',
  help: 'Responses API WebSocket connections accepted by this edge',
  registers: [metricsRegistry],
});
