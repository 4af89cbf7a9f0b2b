/** Publishes one `usage.recorded` fact per chat call; billing turns it into the ledger entry. */
import { randomUUID } from 'node:crypto';
import { TOPICS, tokenCostMicros, type ChatCall, type TokenUnits, type UsageRecorded } from '@unigate/contracts';
import { costMicrosTotal, tokensTotal, type EventBus } from '@unigate/platform';

export class UsageRecorder {
  constructor(private readonly bus: EventBus) {}

  async record(call: Omit<ChatCall, 'body'>, units: TokenUnits): Promise<UsageRecorded> {
    const model = call.route.model;
    const event: UsageRecorded = {
      event_id: randomUUID(),
      request_id: call.request_id,
      account_id: call.account_id,
      key_id: call.key_id,
      hold_id: call.hold_id,
      model: model.id,
      kind: model.kind,
      units,
      cost_micros: tokenCostMicros(model.prices, units),
      occurred_at: new Date().toISOString(),
    };
    const headers: Record<string, string> = call.traceparent ? { traceparent: call.traceparent } : {};
    // Keyed by account: one account's events stay ordered on one partition.
    await this.bus.publish(TOPICS.usageRecorded, call.account_id, event, headers);
    tokensTotal.inc({ model: model.id, direction: 'input' }, units.input_tokens - units.cached_input_tokens);
    tokensTotal.inc({ model: model.id, direction: 'cached_input' }, units.cached_input_tokens);
    tokensTotal.inc({ model: model.id, direction: 'output' }, units.output_tokens);
    costMicrosTotal.inc({ model: model.id }, event.cost_micros);
    return event;
  }
}
