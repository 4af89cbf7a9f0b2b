/**
 * The one edge pipeline: every metered endpoint (contracts' endpoint specs) runs through it.
 *
 *   authenticate (a route hook, before the body is read: a bad key is 401 whatever the body)
 *   → validate with the spec's schema (400 naming the field)
 *   → route: the model, its kind, whether the key may use it (404/400/403)
 *   → plan: the model's rules (400) and the worst case
 *   → admit: limits and the hold (429/402), before any upstream call
 *   → call the owning service (in-process or one gRPC hop), as JSON or a stream written as it comes;
 *     over a hop the call travels while the admission is in flight and the service holds it until then
 *   → when it ends the hold shrinks to what the call cost (all of it goes back when it failed before
 *     anything billable), and billing settles it from the usage event.
 *
 * Errors are rendered in the endpoint's shape (SPEC.md §7) by the one error renderer.
 */
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { context, propagation } from '@opentelemetry/api';
import {
  ANSWER_PIECE_CHARS,
  errors,
  GatewayError,
  holdMicros,
  JsonText,
  parseRequest,
  TokenCountMemo,
  withTokenMemo,
  type AnyEndpointSpec,
  type Attachment,
  type CallMeter,
  type CapabilityService,
  type CatalogPort,
  type EndpointCall,
  type EndpointPort,
} from '@unigate/contracts';
import type { Logger } from '@unigate/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendError, toGatewayError } from '../http/error-renderer';
import { OverheadClock } from '../http/overhead-clock';
import { routeOf } from '../http/request-id';
import { SSE_HEADERS, sseFrame, streamReply } from '../http/stream-reply';
import { holdIdOf, type Admitted, type Reservations } from '@unigate/billing/reservations';
import { readMultipart } from './multipart-body';
import { RecentRefusals } from './recent-refusals';
import { requireRouteAllowed } from './model-route';

export interface PipelineDeps {
  catalog: CatalogPort;
  /** Limits and the hold in one step (Redis in distributed mode, memory in standalone). */
  reservations: Reservations;
  /** The capability services this deployment runs; an endpoint of a missing one is not served. */
  services: Partial<Record<CapabilityService, EndpointPort>>;
  logger: Logger;
}

export class EndpointPipeline {
  private readonly refused = new RecentRefusals();
  /** Token counts of the long messages each account sent before: a coding agent resends them every turn. */
  private readonly tokenCounts = new TokenCountMemo();

  constructor(private readonly deps: PipelineDeps) {}

  serves(spec: AnyEndpointSpec): boolean {
    return this.deps.services[spec.service] !== undefined;
  }

  async handle(spec: AnyEndpointSpec, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const requestId = String(request.id);
    for (const [name, value] of Object.entries(spec.replyHeaders?.(requestId) ?? {})) void reply.header(name, value);
    let family: string | undefined;
    let modelId: string | undefined;
    let admitted: Admitted | undefined;
    // Settles once the admission has: `admitted` is then set, or the admission threw.
    let admission: Promise<void> | undefined;
    try {
      const principal = request.principal;
      if (!principal) throw errors.invalidApiKey();
      let files: Attachment[] = [];
      let input: unknown = request.body;
      if (spec.body?.kind === 'multipart') ({ fields: input, files } = await readMultipart(request, spec.body));
      const body = parseRequest(spec, input);
      const model = spec.modelOf(body);
      const route = await this.deps.catalog.resolve(model).catch((err: unknown) => {
        const unknown = GatewayError.is(err) && err.code === 'model_not_found' ? spec.unknownModel?.(model) : undefined;
        if (!unknown) throw err;
        family = unknown.family;
        throw unknown.error;
      });
      family = route.model.family;
      // Known from here on: a refusal of this model (400 wrong kind, 403 not for this key) counts under it.
      modelId = route.model.id;
      requireRouteAllowed(spec, principal, model, route);
      const plan = withTokenMemo(this.tokenCounts, principal.account_id, () => spec.plan(route.model, body, files));
      const clock = new OverheadClock(reply, routeOf(request));
      const service = this.deps.services[spec.service]!;
      let holdId: string | null = null;
      let overlapped = false;
      if (plan.worstCase) {
        const admit = {
          principal,
          request_id: requestId,
          amount_micros: holdMicros(route.model.prices, plan.worstCase),
          ttl_seconds: plan.holdTtlSeconds,
        };
        holdId = holdIdOf(admit);
        admission = this.deps.reservations.admit(admit).then(
          (current) => {
            admitted = current;
            // The slot goes back the moment the client leaves, not when the upstream call has wound down.
            if (reply.raw.destroyed) void current.finish();
            else reply.raw.once('close', () => void current.finish());
          },
          (err: unknown) => {
            if (GatewayError.is(err) && (err.status === 429 || err.status === 402)) this.refused.note(principal.key_id);
            throw err;
          },
        );
        // Over a hop the call goes out now and the service holds it until admitted: the Redis round
        // trip overlaps the hop. In process there is nothing to overlap, and a key refused a moment
        // ago would likely waste the hop: admit first.
        overlapped = service.overlapsAdmission === true && !this.refused.has(principal.key_id);
        if (overlapped) admission.catch(() => undefined);
        else await admission;
      }
      const call: EndpointCall = {
        endpoint: spec.name,
        request_id: requestId,
        account_id: principal.account_id,
        key_id: principal.key_id,
        tier: principal.tier,
        hold_id: holdId,
        route,
        body,
        options: spec.options?.(request.headers, `${request.protocol}://${request.host}`) ?? {},
        ...(files.length > 0 && { files }),
        traceparent: traceparent(),
      };
      const admittance = { pending: overlapped ? admission : undefined, current: () => admitted };
      void reply.status(spec.successStatus ?? 200);
      if (spec.binary || spec.isStream(body)) await this.stream(spec, call, service, clock, admittance, request, reply, family);
      else await this.answer(spec, call, service, clock, admittance, request, reply);
    } catch (err) {
      // Refused before a large body was read to the end (a file over the limit): sendError reads the
      // rest and drops it, so the client still gets the answer.
      sendError(reply, request, toGatewayError(err, this.deps.logger, requestId), spec.errorShape(family), modelId);
    } finally {
      // Once the admission is known (a call may have failed while it was in flight), the slot goes back.
      void admission?.then(
        () => admitted?.finish(),
        () => undefined,
      );
    }
  }

  private async answer(
    spec: AnyEndpointSpec,
    call: EndpointCall,
    service: EndpointPort,
    clock: OverheadClock,
    admittance: Admittance,
    request: FastifyRequest,
    reply: FastifyReply,
  ) {
    // A client that leaves stops the upstream call too.
    const abort = new AbortController();
    const onClose = () => !reply.raw.writableFinished && abort.abort(new Error('client closed the connection'));
    reply.raw.once('close', onClose);
    let answer: unknown;
    try {
      answer = await service.call(call, abort.signal, clock.meter, admittance.pending);
    } catch (err) {
      await admittance.pending?.catch(() => undefined);
      endCall(admittance.current(), clock.meter, false);
      // The client's leaving is why the call failed: a 499 for the logs, not an unhandled error.
      throw abort.signal.aborted ? errors.clientClosed() : err;
    } finally {
      reply.raw.off('close', onClose);
    }
    // Serialized before the clock stops, so the overhead includes rendering (but for an answer
    // printed in pieces: that is after the overhead header has gone).
    const payload = answerPayload(spec, answer, call.body, request);
    clock.stamp();
    // Before the last byte goes out: a client sending its next request at once finds its slot free,
    // and no more of its money held than this call costs.
    endCall(admittance.current(), clock.meter, true);
    await reply.type('application/json; charset=utf-8').send(payload);
  }

  private async stream(
    spec: AnyEndpointSpec,
    call: EndpointCall,
    service: EndpointPort,
    clock: OverheadClock,
    admittance: Admittance,
    request: FastifyRequest,
    reply: FastifyReply,
    family: string,
  ) {
    const logger = this.deps.logger;
    const failure = (err: unknown) => toGatewayError(err, logger, call.request_id);
    // After its headers a stream's status stays 200 in the access line: the break is told here.
    const brokeOff = (err: unknown, sent: number) => {
      const gatewayError = failure(err);
      logger.warn(
        {
          request_id: call.request_id,
          model: call.route.model.id,
          status: gatewayError.status,
          code: gatewayError.code,
          sent,
          reason: gatewayError.message,
        },
        'stream broke off after it began',
      );
      return gatewayError;
    };
    const sse = spec.sse;
    let last: unknown;
    await streamReply<unknown>(reply, {
      open: (signal) => settledAtEnd(service.stream(call, signal, clock.meter, admittance.pending), admittance, clock.meter),
      beforeHeaders: () => clock.stamp(),
      onEarlyError: (err) => sendError(reply, request, failure(err), spec.errorShape(family), call.route.model.id),
      ...(spec.binary
        ? {
            headers: { 'content-type': spec.binary.contentType(call.body, call.route.model) },
            frame: (item) => item as Uint8Array,
            // Bytes cannot carry an error: the connection is cut so the answer does not look complete.
            failure: (err, sent) => void brokeOff(err, sent),
          }
        : {
            headers: SSE_HEADERS,
            frame: (item) => {
              last = item;
              return item instanceof JsonText ? sseFrame(item.event, item.text) : sseFrame(sse?.eventName?.(item), JSON.stringify(item));
            },
            trailer: sse?.terminator && sseFrame(undefined, sse.terminator),
            failure: (err, sent) => {
              const told = sse?.ended?.(last) === true;
              const gatewayError = brokeOff(err, sent); // an unexpected one is also logged as an error
              if (told) return '';
              const event = sse ? sse.error(gatewayError, call.request_id, sent) : { data: { error: { message: gatewayError.message } } };
              return sseFrame(event.event, JSON.stringify(event.data));
            },
          }),
    });
  }
}

/**
 * The call's admission as the service call sees it: `pending` while it may still be in flight (the
 * port overlaps it), and the admission once made.
 */
interface Admittance {
  pending: Promise<void> | undefined;
  current(): Admitted | undefined;
}

/** `source` item by item; when it ends, fails or is abandoned, the call ends (endCall) before the last byte reaches the client. */
async function* settledAtEnd<T>(source: AsyncIterable<T>, admittance: Admittance, meter: CallMeter): AsyncGenerator<T> {
  let ok = false;
  try {
    yield* source;
    ok = true;
  } finally {
    await admittance.pending?.catch(() => undefined);
    endCall(admittance.current(), meter, ok);
  }
}

/**
 * The call is over: its slot goes back, and its hold shrinks to what the service says it cost (the
 * usage billing will settle), also when it failed after producing something (a stream the upstream
 * cut off midway, or one its client abandoned: over gRPC its cost comes with the stopped call's last
 * message). A call whose cost is unknown keeps its hold for billing when it succeeded, and gives it
 * back when it failed. (A service that did not answer a stop in time is one: billing then charges
 * what the stream produced from a balance no longer held for it, at most what is left.)
 */
function endCall(admitted: Admitted | undefined, meter: CallMeter, ok: boolean): void {
  if (!admitted) return;
  const cost = meter.cost_micros;
  // Anything but a whole number of micro-dollars (a broken price) says nothing: the hold stays for billing.
  if (cost !== undefined && Number.isSafeInteger(cost) && cost >= 0) void admitted.shrinkTo(cost);
  else if (!ok) void admitted.refund();
  void admitted.finish();
}

/** The W3C traceparent of the active span, so the trace continues in the service. */
function traceparent(): string | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

/**
 * What the client gets of an answer: its JSON text, or that text in pieces written with other
 * requests' work between them, when it is printed in pieces (the spec's `inPieces`) or too long to
 * write in one go (the socket write of 11 MB held the event loop ~100 ms). Only answers of megabytes
 * go in pieces: a socket that takes each at once would otherwise have them all written in one turn.
 */
function answerPayload(spec: AnyEndpointSpec, answer: unknown, body: unknown, request: FastifyRequest): string | Readable {
  let text: string;
  if (answer instanceof JsonText) text = answer.text;
  else if (spec.inPieces?.when(body)) return piecewise(spec.inPieces.render(answer, body));
  else text = JSON.stringify(spec.localize ? spec.localize(answer, `${request.protocol}://${request.host}`) : answer);
  return text.length > ANSWER_PIECE_CHARS ? piecewise(slices(text, ANSWER_PIECE_CHARS)) : text;
}

const piecewise = (pieces: Iterable<string>) => Readable.from(turnByTurn(pieces), { objectMode: false, highWaterMark: 1 });

/** `text` cut into `size`-character pieces. */
function* slices(text: string, size: number): Generator<string> {
  for (let at = 0; at < text.length; at += size) yield text.slice(at, at + size);
}

/** `pieces`, one per turn of the event loop. */
async function* turnByTurn(pieces: Iterable<string>): AsyncGenerator<string> {
  for (const piece of pieces) {
    yield piece;
    await nextTurn();
  }
}
