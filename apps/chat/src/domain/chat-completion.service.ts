/**
 * Serves chat completions: picks the upstream channel (failing over on retryable errors before any
 * byte was produced), renames the model back to what the client asked for, and records exactly what
 * was produced — also when the client goes away or the upstream breaks mid-stream.
 */
import {
  GatewayError,
  type Channel,
  type ChatCall,
  type ChatCompletionChunk,
  type ChatCompletionResponse,
  type ChatPort,
  type Protocol,
} from '@unigate/contracts';
import { upstreamRequests, type EventBus, type Logger } from '@unigate/platform';
import type { ChatProvider } from '@unigate/providers';
import { UsageMeter } from './usage-meter';
import { UsageRecorder } from './usage-recorder';

export interface ChatServiceDeps {
  bus: EventBus;
  providerFor: (protocol: Protocol) => ChatProvider;
  logger: Logger;
}

export class ChatCompletionService implements ChatPort {
  private readonly recorder: UsageRecorder;

  constructor(private readonly deps: ChatServiceDeps) {
    this.recorder = new UsageRecorder(deps.bus);
  }

  async complete(call: ChatCall): Promise<ChatCompletionResponse> {
    const meter = new UsageMeter(call.body);
    try {
      const response = await this.withFailover(call, (provider, channel) => provider.complete(channel, call.body));
      meter.observeUsage(response.usage);
      return { ...response, model: call.body.model };
    } finally {
      await this.record(call, meter);
    }
  }

  async *stream(call: ChatCall, signal: AbortSignal): AsyncIterable<ChatCompletionChunk> {
    const meter = new UsageMeter(call.body);
    const includeUsage = call.body.stream_options?.include_usage === true;
    try {
      const { first, rest } = await this.withFailover(call, (provider, channel) => openStream(provider.stream(channel, call.body, signal)));
      for await (const chunk of prepend(first, rest)) {
        meter.observeChunk(chunk);
        const isUsageChunk = chunk.choices.length === 0 && chunk.usage;
        if (isUsageChunk && !includeUsage) continue;
        const out: ChatCompletionChunk = { ...chunk, model: call.body.model };
        if (includeUsage) out.usage = chunk.usage ?? null;
        else delete out.usage;
        yield out;
      }
    } finally {
      await this.record(call, meter);
    }
  }

  /** Try channels in order; move on only for retryable failures (nothing has reached the client yet). */
  private async withFailover<T>(call: ChatCall, attempt: (provider: ChatProvider, channel: Channel) => Promise<T>): Promise<T> {
    let lastError: unknown;
    for (const channel of call.route.channels) {
      const labels = { model: call.route.model.id, channel: channel.id };
      try {
        const result = await attempt(this.deps.providerFor(channel.protocol), channel);
        upstreamRequests.inc({ ...labels, outcome: 'ok' });
        return result;
      } catch (err) {
        lastError = err;
        const retryable = GatewayError.is(err) && err.retryable;
        upstreamRequests.inc({ ...labels, outcome: retryable ? 'retryable_error' : 'error' });
        this.deps.logger.warn({ request_id: call.request_id, channel: channel.id, err: describe(err) }, 'upstream attempt failed');
        if (!retryable) throw err;
      }
    }
    throw lastError ?? new GatewayError({ status: 503, code: 'no_channel', type: 'server_error', message: `No upstream channel for ${call.route.model.id}` });
  }

  private async record(call: ChatCall, meter: UsageMeter): Promise<void> {
    // Nothing came back from any upstream: there is nothing to charge, and the edge releases the hold.
    if (!meter.producedAnything) return;
    try {
      await this.recorder.record(call, meter.units());
    } catch (err) {
      // The response already happened; keep the fact in the log so it can be replayed by an operator.
      this.deps.logger.error({ request_id: call.request_id, account_id: call.account_id, units: meter.units(), err: describe(err) }, 'usage event could not be published');
    }
  }
}

/** Start a stream and wait for its first chunk, so failures before the first byte can fail over. */
async function openStream(source: AsyncIterable<ChatCompletionChunk>) {
  const rest = source[Symbol.asyncIterator]();
  const first = await rest.next();
  return { first, rest };
}

async function* prepend(first: IteratorResult<ChatCompletionChunk>, rest: AsyncIterator<ChatCompletionChunk>) {
  if (first.done) return;
  yield first.value;
  try {
    for (;;) {
      const next = await rest.next();
      if (next.done) return;
      yield next.value;
    }
  } finally {
    await rest.return?.();
  }
}

function describe(err: unknown) {
  return err instanceof Error ? { name: err.name, message: err.message } : String(err);
}
