/**
 * Serves chat completions: picks the upstream channel (failing over on retryable errors before any
 * byte was produced), renames the model back to what the client asked for, and records exactly what
 * was produced — also when the client goes away or the upstream breaks mid-stream.
 */
import type { ChatCall, ChatCompletionChunk, ChatCompletionResponse, ChatPort, Protocol } from '@unigate/contracts';
import type { EventBus, Logger } from '@unigate/platform';
import type { ChatProvider } from '@unigate/providers';
import { openStream, withFailover } from './failover';
import { UsageMeter } from './usage-meter';
import { UsageRecorder } from './usage-recorder';
import { reportUsage } from './usage-reporting';

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
      const response = await withFailover(call.route, call.request_id, this.deps.logger, (channel) =>
        this.deps.providerFor(channel.protocol).complete(channel, call.body),
      );
      meter.observeUsage(response.usage);
      return { ...response, model: call.body.model };
    } finally {
      await reportUsage(this.recorder, call, meter, this.deps.logger);
    }
  }

  async *stream(call: ChatCall, signal: AbortSignal): AsyncIterable<ChatCompletionChunk> {
    const meter = new UsageMeter(call.body);
    const includeUsage = call.body.stream_options?.include_usage === true;
    try {
      const chunks = await withFailover(call.route, call.request_id, this.deps.logger, (channel) =>
        openStream(this.deps.providerFor(channel.protocol).stream(channel, call.body, signal)),
      );
      for await (const chunk of chunks) {
        meter.observeChunk(chunk);
        const isUsageChunk = chunk.choices.length === 0 && chunk.usage;
        if (isUsageChunk && !includeUsage) continue;
        const out: ChatCompletionChunk = { ...chunk, model: call.body.model };
        if (includeUsage) out.usage = chunk.usage ?? null;
        else delete out.usage;
        yield out;
      }
    } finally {
      await reportUsage(this.recorder, call, meter, this.deps.logger);
    }
  }
}
