/**
 * Serves the messages format (POST /v1/messages): native pass-through on channels that speak it,
 * translation on the others (the provider registry decides), the same failover and the same
 * exactly-what-was-produced metering as chat completions.
 */
import type {
  AnthropicMessage,
  AnthropicStreamEvent,
  CountTokensCall,
  MessagesCall,
  MessagesPort,
  Protocol,
} from '@unigate/contracts';
import type { EventBus, Logger } from '@unigate/platform';
import { anthropicToChatRequest, type MessagesProvider } from '@unigate/providers';
import { openStream, withFailover } from './failover';
import { MessagesUsageMeter } from './messages-usage-meter';
import { UsageRecorder } from './usage-recorder';
import { reportUsage } from './usage-reporting';

export interface MessagesServiceDeps {
  bus: EventBus;
  providerFor: (protocol: Protocol) => MessagesProvider;
  logger: Logger;
}

export class MessagesService implements MessagesPort {
  private readonly recorder: UsageRecorder;

  constructor(private readonly deps: MessagesServiceDeps) {
    this.recorder = new UsageRecorder(deps.bus);
  }

  async create(call: MessagesCall): Promise<AnthropicMessage> {
    const meter = this.meter(call);
    try {
      const msg = await withFailover(call.route, call.request_id, this.deps.logger, (channel) =>
        this.deps.providerFor(channel.protocol).create(channel, { ...call.body, stream: false }, undefined, options(call)),
      );
      meter.observeMessage(msg);
      return { ...msg, model: call.body.model };
    } finally {
      await reportUsage(this.recorder, call, meter, this.deps.logger);
    }
  }

  async *stream(call: MessagesCall, signal: AbortSignal): AsyncIterable<AnthropicStreamEvent> {
    const meter = this.meter(call);
    try {
      const events = await withFailover(call.route, call.request_id, this.deps.logger, (channel) =>
        openStream(this.deps.providerFor(channel.protocol).stream(channel, { ...call.body, stream: true }, signal, options(call))),
      );
      for await (const ev of events) {
        meter.observeEvent(ev);
        yield ev.type === 'message_start' ? { ...ev, message: { ...ev.message, model: call.body.model } } : ev;
      }
    } finally {
      await reportUsage(this.recorder, call, meter, this.deps.logger);
    }
  }

  countTokens(call: CountTokensCall) {
    return withFailover(call.route, call.request_id, this.deps.logger, (channel) =>
      this.deps.providerFor(channel.protocol).countTokens(channel, call.body, undefined, options(call)),
    );
  }

  private meter(call: MessagesCall): MessagesUsageMeter {
    return new MessagesUsageMeter(() => anthropicToChatRequest(call.body).messages);
  }
}

function options(call: { betas?: string[] }) {
  return call.betas?.length ? { beta: call.betas.join(',') } : undefined;
}
