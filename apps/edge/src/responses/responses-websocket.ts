/**
 * The Responses API over a WebSocket (OpenAI's "WebSocket mode": Codex opens it first with its own
 * OpenAI provider; the official SDKs' `responses.connect()`). `GET /v1/responses` is upgraded, and
 * each `response.create` message is one `POST /v1/responses` with `stream: true`, run in process on
 * the edge's own routes (LocalCalls): the same authentication, validation, limits, hold, billing and
 * errors as over HTTP. Its events go back as they come, one text message each.
 *
 * What the transport adds (what Codex 0.169.0 sends, captured):
 * - one response at a time per connection, in the order asked;
 * - `previous_response_id` naming the connection's latest response continues it from memory, also
 *   with `store: false`: Codex then sends only the new items (a tool call's output). Any other id is
 *   looked up among stored responses, as over HTTP;
 * - `generate: false` (Codex's prewarm) is answered at once with a response that has no output: no
 *   upstream call, nothing billed; it can be continued like any other. It is checked as the request
 *   itself would be up to its model: valid, the key still valid and allowed that model;
 * - a request refused before its first event is one `error` message with the HTTP status and error
 *   body it stands for (`{type: "error", status, error}`), which Codex maps back to that HTTP error;
 * - a request sent on a connection older than its maximum age (60 minutes, as OpenAI's) is refused
 *   with `websocket_connection_limit_reached` and the connection closes: clients then reconnect with
 *   the whole conversation, and a long session does not stay pinned to one replica.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { text } from 'node:stream/consumers';
import {
  errors,
  GatewayError,
  inputItems,
  parseOrThrow,
  renderError,
  responseIdFor,
  responsesSpec,
  type CatalogPort,
  type ResponsesRequest,
  type ResponsesResponse,
} from '@unigate/contracts';
import type { BodyBudget, BodyTicket, Logger } from '@unigate/platform';
import { createParser } from 'eventsource-parser';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { Authenticator } from '../auth/authenticator';
import { shouldRetry, toGatewayError } from '../http/error-renderer';
import { parseJsonText } from '../http/json-body';
import type { LocalCalls, LocalStreamingAnswer, LocalStreamingHttp } from '../http/local-calls';
import { newRequestId } from '../http/request-id';
import { websocketConnections, websocketConnectionsTotal } from './websocket-metrics';
import { routeFor } from '../pipeline/model-route';

/** Requests a connection may have waiting behind the one running; more is a client not waiting for answers. */
const MAX_WAITING = 8;
/** Events held in memory for a client reading slowly beyond this pause the reading of the answer (and so the upstream) until they are written. */
const HIGH_WATER_BYTES = 1024 * 1024;
const SHUTTING_DOWN = () => new GatewayError({ status: 503, code: 'shutting_down', message: 'The gateway is shutting down.' });
/** OpenAI's code and status for a request on a connection past its lifetime, which clients answer by reconnecting. */
const AGED = (maxAgeMs: number) =>
  new GatewayError({
    status: 400,
    code: 'websocket_connection_limit_reached',
    message: `This WebSocket connection reached its ${formatAge(maxAgeMs)} limit. Open a new connection to continue.`,
  });
/** Close code of a connection the gateway ends because it is shutting down (RFC 6455 "going away"). */
const GOING_AWAY = 1001;

export interface ResponsesWebSocketDeps {
  server: Server;
  auth: Authenticator;
  catalog: CatalogPort;
  local: LocalCalls;
  /** The largest message taken, as the HTTP body limit. */
  maxPayload: number;
  /** A connection with no bytes either way for this long is closed, as an HTTP one is (0: never). */
  idleTimeoutMs: number;
  /** A message not whole this long after its first bytes closes the connection, as an HTTP request's request timeout does (0: never). */
  messageTimeoutMs: number;
  /** A request sent on a connection older than this is refused and the connection closed (0: no limit). */
  maxAgeMs: number;
  /** Request bodies held at once: a message counts from its first bytes (an HTTP body's budget). */
  bodyBudget: BodyBudget;
  /** The client's address as the HTTP routes see it (request.ip), for the key lookups it may make (UnknownKeyBudget). */
  clientAddress: (req: IncomingMessage) => string | undefined;
  logger: Logger;
}

/** Serves WebSocket mode on `deps.server`; the returned function ends every connection (shutdown). */
export function registerResponsesWebSocket(deps: ResponsesWebSocketDeps): () => void {
  const wss = new WebSocketServer({ noServer: true, maxPayload: deps.maxPayload });
  const connections = new Set<ResponsesConnection>();
  let closing = false;
  deps.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!isResponsesHandshake(req)) return serveAsPlainRequest(deps.server, req, socket, head);
    if (closing) return refuseHandshake(socket, SHUTTING_DOWN());
    const admitted = async () => {
      const principal = await deps.auth.authenticate({ headers: req.headers, ip: deps.clientAddress(req) });
      // The origin the client used (no answer of this endpoint carries a link, so no proxy's word is needed).
      const origin = { protocol: 'encrypted' in socket && socket.encrypted ? 'https' : 'http', host: req.headers.host ?? '' };
      wss.handleUpgrade(req, socket, head, (ws) => {
        // A prewarm calls nothing, so it checks here what the pipeline would: the key (revoked since
        // the handshake?) and the model.
        const checkModel = async (model: string) => {
          await routeFor(deps.catalog, responsesSpec, await deps.auth.authenticate(req), model);
        };
        // Before the connection's own listener: a whole message gives its bytes back before its request is counted.
        countMessageBytes(ws, socket as Socket, deps.bodyBudget, principal.key_id);
        const connection = new ResponsesConnection(
          ws,
          deps.local.streamingAs(req.headers.authorization!, origin),
          checkModel,
          deps.maxAgeMs,
          deps.logger,
        );
        // An HTTP server's socket (the upgrade event types it as any duplex stream). Idle is the client
        // not talking or not reading; a response waiting on its upstream, all written, is not (as over HTTP).
        if (deps.idleTimeoutMs > 0) {
          const raw = socket as Socket;
          raw.setTimeout(deps.idleTimeoutMs);
          raw.on('timeout', () =>
            connection.answering && ws.bufferedAmount === 0 ? raw.setTimeout(deps.idleTimeoutMs) : ws.close(1000, 'idle'),
          );
        }
        if (deps.messageTimeoutMs > 0) cutSlowMessages(ws, socket as Socket, deps.messageTimeoutMs);
        connections.add(connection);
        websocketConnectionsTotal.inc();
        websocketConnections.inc();
        ws.once('close', () => {
          connections.delete(connection);
          websocketConnections.dec();
        });
      });
    };
    admitted().catch((err: unknown) => refuseHandshake(socket, toGatewayError(err, deps.logger, 'websocket-handshake')));
  });
  return () => {
    closing = true;
    for (const connection of connections) connection.end();
  };
}

/** Close code of a connection whose message did not arrive in time (RFC 6455 "policy violation"). */
const POLICY_VIOLATION = 1008;

/**
 * A message must arrive whole within `ms` of its first bytes, as an HTTP request within the request
 * timeout. The idle timeout alone let a client trickle a byte every few minutes and hold a message of
 * up to `maxPayload` (32 MiB) in memory for as long as it liked: 50 connections so held took 1.4 GB.
 */
function cutSlowMessages(ws: WebSocket, socket: Socket, ms: number): void {
  let timer: NodeJS.Timeout | undefined;
  const done = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  // Runs before ws parses the bytes, so a frame they complete clears the timer they start. A chunk that
  // also begins the next message leaves it untimed until its next bytes: the bound is `ms` after them.
  socket.prependListener('data', () => {
    timer ??= setTimeout(() => {
      ws.close(POLICY_VIOLATION, 'message not received in time');
      // Once the close frame is written, not after ws's 30 s wait for the client's: the bytes held go now.
      socket.write('', () => ws.terminate());
    }, ms);
  });
  onMessageEnd(ws, done);
}

/** Calls `ended` when a message is whole, when a control frame comes between messages, and on close. */
function onMessageEnd(ws: WebSocket, ended: () => void): void {
  // A ping may come between a message's fragments: it ends no message then.
  const controlDone = () => (fragmenting(ws) ? undefined : ended());
  ws.on('message', ended).on('ping', controlDone).on('pong', controlDone).once('close', ended);
}

/** Close code of a connection whose message the gateway cannot hold now (RFC 6455 "try again later"). */
const TRY_AGAIN_LATER = 1013;

/**
 * A message's bytes count against the request body budget as they arrive: ws holds a message whole
 * (up to `maxPayload`) before handing it over, where an HTTP body over its share is refused before it
 * is read. Once whole, the message is the request it stands for, counted as an HTTP body is. A chunk
 * the budget refuses closes the connection with 1013: what it held goes at once.
 */
function countMessageBytes(ws: WebSocket, socket: Socket, budget: BodyBudget, key: string): void {
  const ticket: BodyTicket = { key, bytes: 0 };
  let refused = false;
  // Before ws parses the chunk, as cutSlowMessages: a message the chunk completes gives its bytes back after.
  socket.prependListener('data', (chunk: Buffer) => {
    if (refused || !budget.charge(ticket, chunk.length)) return;
    refused = true;
    ws.close(TRY_AGAIN_LATER, 'the gateway holds as many request bodies as it can; retry shortly');
    socket.write('', () => ws.terminate());
  });
  onMessageEnd(ws, () => budget.release(ticket));
}

/** Whether `ws` holds the first fragments of a message (ws keeps the opcode of one in progress; no public API says it). */
function fragmenting(ws: WebSocket): boolean {
  return Boolean((ws as unknown as { _receiver?: { _fragmented?: number } })._receiver?._fragmented);
}

/** One connection: its requests in order, and its latest response for continuing it. */
class ResponsesConnection {
  private waiting = 0;
  private running: Promise<void> = Promise.resolve();
  private latest: { id: string; items: unknown[] } | undefined;
  private ending = false;
  /** Settles when the latest message sent has been written to the socket. */
  private written: Promise<void> = Promise.resolve();
  /** Aborts the request running when the client goes away. */
  private readonly gone = new AbortController();
  private readonly openedAt = performance.now();

  constructor(
    private readonly ws: WebSocket,
    private readonly http: LocalStreamingHttp,
    private readonly checkModel: (model: string) => Promise<void>,
    private readonly maxAgeMs: number,
    private readonly logger: Logger,
  ) {
    ws.on('message', (data, isBinary) => this.enqueue(data, isBinary));
    ws.once('close', () => this.gone.abort(new Error('client closed the connection')));
    ws.on('error', () => undefined);
  }

  /** Whether a response is running or waiting. */
  get answering(): boolean {
    return this.waiting > 0;
  }

  /** Shutdown: an idle connection closes now, a busy one once its response has ended. */
  end(): void {
    this.ending = true;
    if (this.waiting === 0) this.ws.close(GOING_AWAY, 'server shutting down');
  }

  private enqueue(data: RawData, isBinary: boolean): void {
    // Shutting down: what is running finishes, nothing new starts (the connection closes after it).
    if (this.ending) return this.sendError(SHUTTING_DOWN());
    if (this.waiting > MAX_WAITING) {
      this.sendError(
        errors.invalidRequest(`At most ${MAX_WAITING} requests may wait on one connection; send the next after response.completed.`, null),
      );
      return;
    }
    // Aged when it was sent: a request sent earlier and waiting behind a long response still runs.
    const aged = this.maxAgeMs > 0 && performance.now() - this.openedAt >= this.maxAgeMs;
    this.waiting++;
    this.running = this.running.then(async () => {
      try {
        if (aged) this.refuseAged();
        else if (!this.gone.signal.aborted) await this.create(parseCreate(data, isBinary));
      } catch (err) {
        this.sendError(toGatewayError(err, this.logger, 'websocket'));
      } finally {
        this.waiting--;
        if (this.ending && this.waiting === 0) this.ws.close(GOING_AWAY, 'server shutting down');
      }
    });
  }

  private async create(body: CreateBody): Promise<void> {
    const { generate, ...request } = body;
    const latest = this.latest;
    // Items continued from memory go before the client's: an error names the client's own indices.
    let remembered = 0;
    // An input of another shape is left for the pipeline to refuse, naming it.
    if (latest && request.previous_response_id === latest.id && hasItemsInput(request)) {
      request.input = [...latest.items, ...inputItems(request as ItemsInput)];
      delete request.previous_response_id;
      remembered = latest.items.length;
    }
    try {
      if (generate === false) return await this.prewarm(request);
      // A signal of its own, cut with the connection: the connection's would keep a listener per request.
      const cut = new AbortController();
      const onGone = () => cut.abort(this.gone.signal.reason);
      this.gone.signal.addEventListener('abort', onGone, { once: true });
      try {
        await this.relay(request, cut.signal, remembered);
      } finally {
        this.gone.signal.removeEventListener('abort', onGone);
      }
    } catch (err) {
      if (remembered === 0) throw err;
      const failure = toGatewayError(err, this.logger, 'websocket');
      throw new GatewayError(clientIndices(failure.toJSON(), remembered));
    }
  }

  /** POST /v1/responses in process, its events sent on as they come. `remembered`: items put before the client's input. */
  private async relay(request: Record<string, unknown>, signal: AbortSignal, remembered: number): Promise<void> {
    let answer: LocalStreamingAnswer;
    try {
      answer = await this.http({ method: 'POST', url: responsesSpec.path, body: { ...request, stream: true }, signal });
    } catch (err) {
      // Cut before its headers because the client left (the in-process response is destroyed): that is
      // the client leaving, not a failure of the gateway, and nobody is left to tell.
      if (signal.aborted) return;
      throw err;
    }
    if (answer.status !== 200) {
      const { error } = errorBody(await text(answer.body));
      const named = typeof error === 'object' && error !== null ? clientIndices(error, remembered) : error;
      this.send(JSON.stringify({ type: 'error', status: answer.status, error: named }));
      return;
    }
    let finished: ResponsesResponse | undefined;
    const parser = createParser({
      onEvent: (event) => {
        this.send(event.data);
        // The response a later request may continue: only a finished one has all its output.
        if (event.event === 'response.completed' || event.event === 'response.incomplete')
          finished = (JSON.parse(event.data) as { response: ResponsesResponse }).response;
      },
    });
    const decoder = new TextDecoder();
    try {
      for await (const chunk of answer.body) {
        parser.feed(decoder.decode(chunk as Buffer, { stream: true }));
        if (this.ws.bufferedAmount > HIGH_WATER_BYTES) await this.written;
      }
    } catch {
      // Cut when the client left: nobody is left to tell.
      return;
    }
    // Answered, so the pipeline took the input as it is.
    if (finished) this.latest = { id: finished.id, items: [...inputItems(request as ItemsInput), ...finished.output] };
  }

  /** `generate: false`: a response with no output, at once; its input is remembered for the next request. */
  private async prewarm(request: Record<string, unknown>): Promise<void> {
    const checked = parseOrThrow(responsesSpec.request, { ...request, stream: true });
    await this.checkModel(checked.model);
    const response = {
      id: responseIdFor(newRequestId()),
      object: 'response',
      created_at: Math.floor(Date.now() / 1000),
      status: 'completed',
      model: checked.model,
      output: [],
      usage: {
        input_tokens: 0,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 0,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 0,
      },
    } satisfies ResponsesResponse;
    this.send(JSON.stringify({ type: 'response.created', response: { ...response, status: 'in_progress' }, sequence_number: 0 }));
    this.send(JSON.stringify({ type: 'response.completed', response, sequence_number: 1 }));
    this.latest = { id: response.id, items: inputItems(checked) };
  }

  /** Said in order, after whatever was running; then the connection closes (later messages are not answered). */
  private refuseAged(): void {
    this.sendError(AGED(this.maxAgeMs));
    this.ws.close(1000, 'connection limit reached');
  }

  private sendError(err: GatewayError): void {
    this.send(JSON.stringify({ type: 'error', status: err.status, ...(renderError(err, 'B', 'websocket') as object) }));
  }

  private send(text: string): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    this.written = new Promise((resolve) => this.ws.send(text, () => resolve()));
  }
}

type CreateBody = Record<string, unknown> & { generate?: unknown; previous_response_id?: unknown; input?: unknown };
type ItemsInput = Pick<ResponsesRequest, 'input'>;

/** Whether the request's input has a shape items can be read from (none, a string, a list). */
const hasItemsInput = (request: Record<string, unknown>) =>
  request.input === undefined || typeof request.input === 'string' || Array.isArray(request.input);

/** A `response.create` message's request, or the 400 saying what is wrong with the message. */
function parseCreate(data: RawData, isBinary: boolean): CreateBody {
  if (isBinary) throw errors.invalidRequest('Send response.create as a text message of JSON.', null);
  // Checked as an HTTP body is: a message nested too deep would overflow the stack of its relay.
  const message = parseJsonText(String(data));
  if (typeof message !== 'object' || message === null || Array.isArray(message))
    throw errors.invalidRequest('The message must be a JSON object.', null);
  const { type, stream_id: streamId, ...body } = message as Record<string, unknown>;
  if (type !== 'response.create')
    throw errors.invalidRequest(`Unknown event type '${String(type).slice(0, 100)}': the one event taken is 'response.create'.`, 'type');
  if (streamId !== undefined) throw errors.invalidRequest('stream_id (several streams on one connection) is not supported.', 'stream_id');
  return body;
}

/** The `error` object of an HTTP error body (a 429's Shape A made one), or the body's text as its message. */
function errorBody(text: string): { error: unknown } {
  try {
    const parsed = JSON.parse(text) as { error?: unknown; code?: unknown; message?: unknown };
    if (parsed.error !== undefined) return { error: parsed.error };
    if (typeof parsed.message === 'string') return { error: { message: parsed.message, code: parsed.code, type: 'rate_limit_error' } };
  } catch {
    // not JSON: said as it is below
  }
  return { error: { message: text.slice(0, 1000), type: 'api_error' } };
}

/**
 * An error's message and param with `input[k]` of the merged input renamed `input[k − remembered]`,
 * the index in the input the client sent; an error whose param is one of the first `remembered`
 * items, which came from memory, names `previous_response_id` (continuedItem). Nothing changes when
 * nothing was remembered.
 */
function clientIndices<T extends object>(error: T, remembered: number): T {
  if (remembered === 0) return error;
  const item = /^input\[(\d+)\]/.exec(String((error as { param?: unknown }).param));
  if (item && Number(item[1]) < remembered) return continuedItem(error);
  const rename = (v: unknown) =>
    typeof v === 'string'
      ? v.replace(/\binput\[(\d+)\]/g, (all, k: string) => (Number(k) >= remembered ? `input[${Number(k) - remembered}]` : all))
      : v;
  const { message, param } = error as { message?: unknown; param?: unknown };
  return { ...error, ...(message !== undefined && { message: rename(message) }), ...(param !== undefined && { param: rename(param) }) };
}

/**
 * An error about an item continued from memory, which the client sent in no input of this request:
 * it names `previous_response_id`, as over HTTP an item of a stored conversation does (withParam's
 * renaming of the message's `Invalid '…':` prefix).
 */
function continuedItem<T extends object>(error: T): T {
  const { message, param } = error as { message?: unknown; param?: unknown };
  const prefix = `Invalid '${String(param)}': `;
  const detail = typeof message === 'string' && message.startsWith(prefix) ? message.slice(prefix.length) : undefined;
  return { ...error, param: 'previous_response_id', ...(detail !== undefined && { message: `Invalid 'previous_response_id': ${detail}` }) };
}

/** 3600000 → "60-minute", 90000 → "90-second": the limit as the message names it. */
function formatAge(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000}-minute` : `${Math.round(ms / 100) / 10}-second`;
}

const isResponsesHandshake = (req: IncomingMessage) =>
  req.method === 'GET' && /\bwebsocket\b/i.test(req.headers.upgrade ?? '') && req.url?.split('?')[0] === responsesSpec.path;

/** A refused handshake is an ordinary HTTP answer, its error in the Responses API's shape. */
function refuseHandshake(socket: Duplex, err: GatewayError): void {
  const body = JSON.stringify(renderError(err, 'B', 'websocket-handshake'));
  socket.end(
    `HTTP/1.1 ${err.status} ${err.status === 401 ? 'Unauthorized' : 'Error'}\r\n` +
      'content-type: application/json; charset=utf-8\r\n' +
      `content-length: ${Buffer.byteLength(body)}\r\n` +
      `x-should-retry: ${shouldRetry(err.status)}\r\n` +
      'connection: close\r\n\r\n' +
      body,
  );
}

/**
 * Any other upgrade (curl's `--http2` asks for h2c) is served as the plain HTTP/1.1 request it also
 * is, as Node does when no one listens for upgrades: its head goes back in front of the socket's
 * bytes without the upgrade headers, and the server reads the socket as a new connection.
 */
function serveAsPlainRequest(server: Server, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i];
    if (/^(upgrade|connection|http2-settings)$/i.test(name)) continue;
    lines.push(`${name}: ${req.rawHeaders[i + 1]}`);
  }
  socket.unshift(Buffer.concat([Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1'), head]));
  server.emit('connection', socket);
}
