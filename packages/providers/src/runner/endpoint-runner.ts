/**
 * The one service-side runner: every endpoint call of a capability service (chat, media, video) goes
 * through it. It picks the adapter for each channel's protocol, fails over between channels before
 * anything reached the client, passes cancellation to the upstream, and reports exactly the usage
 * the adapter measured — also when the client goes away or the upstream breaks mid-stream — once.
 */
import { errors, isEmptyUsage, type CallMeter, type EndpointCall, type EndpointPort, type Usage, type UsageSink } from '@unigate/contracts';
import type { AnyServiceEndpoint, CallContext, EndpointAdapter, MeasuredStream } from '../adapter';
import { sharedHttpClient, type HttpClient } from '../http/http-client';
import { gateUpstreamsOf } from '../http/upstream-gate';
import { timeUpstreamsOf } from '../http/upstream-wait';
import { withFailover, type AttemptObserver } from './failover';

export interface EndpointRunnerDeps {
  endpoints: readonly AnyServiceEndpoint[];
  usage: UsageSink;
  http?: HttpClient;
  /** Every upstream attempt, for metrics and logs. */
  onAttempt?: AttemptObserver;
  /** Usage that could not be handed to the sink (the answer already happened): log it for replay. */
  onUsageLost?: (call: EndpointCall, usage: Usage, err: unknown) => void;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Adapter = EndpointAdapter<any, any, any>;

export class EndpointRunner implements EndpointPort {
  private readonly endpoints: ReadonlyMap<string, AnyServiceEndpoint>;
  private readonly adapters = new Map<string, Adapter | undefined>();
  private readonly http: HttpClient;
  /** A held call is translated at once; its upstream request waits for the admission (upstream-gate.ts). */
  readonly preparesWhileHeld = true;

  constructor(private readonly deps: EndpointRunnerDeps) {
    this.endpoints = new Map(deps.endpoints.map((e) => [e.spec.name, e]));
    this.http = deps.http ?? sharedHttpClient();
  }

  /** The endpoint names this runner serves. */
  get served(): string[] {
    return [...this.endpoints.keys()];
  }

  async call(
    call: EndpointCall,
    signal: AbortSignal = new AbortController().signal,
    meter?: CallMeter,
    admission?: Promise<void>,
  ): Promise<unknown> {
    const endpoint = this.endpoint(call.endpoint);
    if (meter) timeUpstreamsOf(signal, meter);
    if (admission) gateUpstreamsOf(signal, admission);
    const ctx = context(call, signal);
    const measured = await withFailover(
      call.route,
      (channel) => this.adapter(endpoint, channel.protocol).call(channel, call.body, ctx),
      this.deps.onAttempt,
      signal,
      call.request_id,
    );
    await this.report(call, measured.usage, meter);
    return measured.value;
  }

  async *stream(call: EndpointCall, signal: AbortSignal, meter?: CallMeter, admission?: Promise<void>): AsyncIterable<unknown> {
    const endpoint = this.endpoint(call.endpoint);
    if (meter) timeUpstreamsOf(signal, meter);
    if (admission) gateUpstreamsOf(signal, admission);
    const ctx = context(call, signal);
    let measured: MeasuredStream<unknown> | undefined;
    let it: AsyncIterator<unknown> | undefined;
    try {
      // Wait for the first item inside the attempt, so a failure before the first byte can still fail over.
      const first = await withFailover(
        call.route,
        async (channel) => {
          const adapter = this.adapter(endpoint, channel.protocol);
          if (!adapter.stream) throw errors.invalidRequest(`${endpoint.spec.path} does not stream`, 'stream');
          measured = adapter.stream(channel, call.body, ctx);
          it = measured[Symbol.asyncIterator]();
          return it.next();
        },
        this.deps.onAttempt,
        signal,
        call.request_id,
      );
      for (let next = first; !next.done; next = await it!.next()) yield next.value;
    } finally {
      // Abandoned by the caller (client gone): stop reading the upstream.
      await it?.return?.(undefined)?.catch(() => undefined);
      if (measured) await this.report(call, measured.usage(), meter);
    }
  }

  private endpoint(name: string): AnyServiceEndpoint {
    const endpoint = this.endpoints.get(name);
    if (!endpoint) throw errors.invalidRequest(`This service does not serve the endpoint '${name}'.`, null, 'unknown_endpoint');
    return endpoint;
  }

  /** The adapter for a channel's protocol; a protocol without one is a channel that cannot serve: fail over. */
  private adapter(endpoint: AnyServiceEndpoint, protocol: string): Adapter {
    const key = `${endpoint.spec.name}\u0000${protocol}`;
    if (!this.adapters.has(key)) this.adapters.set(key, endpoint.adapter(protocol, this.http));
    const adapter = this.adapters.get(key);
    if (!adapter) throw errors.upstream(502, `no adapter serves ${endpoint.spec.path} over the upstream protocol '${protocol}'`, true);
    return adapter;
  }

  /**
   * Charge what was produced — never for a call that produced nothing (the edge releases the hold) —
   * and put its cost on the meter.
   */
  private async report(call: EndpointCall, usage: Usage, meter?: CallMeter): Promise<void> {
    if (isEmptyUsage(usage)) return;
    try {
      const cost = await this.deps.usage.record(call, usage);
      if (meter) meter.cost_micros = cost;
    } catch (err) {
      this.deps.onUsageLost?.(call, usage, err);
    }
  }
}

function context(call: EndpointCall, signal: AbortSignal): CallContext {
  return {
    signal,
    request_id: call.request_id,
    account_id: call.account_id,
    tier: call.tier ?? 'paid',
    options: call.options,
    files: call.files ?? [],
    model: call.route.model,
  };
}
