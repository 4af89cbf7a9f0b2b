/**
 * POST /v1/chat/completions after authentication and validation: resolve the model, check the key
 * may use it, reserve the worst case, then hand the call to the chat service. A failed call gives
 * its hold back; a successful one is settled by billing from the usage event.
 */
import { context, propagation } from '@opentelemetry/api';
import {
  errors,
  type BillingPort,
  type CatalogPort,
  type ChatCall,
  type ChatCompletionChunk,
  type ChatCompletionRequest,
  type ChatCompletionResponse,
  type ChatPort,
  type KeyPrincipal,
  type ModelRoute,
} from '@unigate/contracts';
import type { Logger } from '@unigate/platform';
import { enforceChatModelRules } from './model-rules';
import { worstCaseChatCostMicros } from './worst-case-cost';

export class ChatCompletionsUseCase {
  constructor(
    private readonly chat: ChatPort,
    private readonly billing: BillingPort,
    private readonly catalog: CatalogPort,
    private readonly logger: Logger,
  ) {}

  /** The model's route, once the key is known to be allowed to use it for chat. */
  async resolve(principal: KeyPrincipal, model: string): Promise<ModelRoute> {
    const route = await this.catalog.resolve(model);
    if (route.model.kind !== 'chat') {
      throw errors.invalidRequest(`The model '${model}' is a ${route.model.kind} model and cannot be used for chat.`, 'model', 'model_not_supported');
    }
    if (principal.models.length > 0 && !principal.models.includes(route.model.id) && !principal.models.includes(model)) {
      throw errors.modelForbidden(model);
    }
    return route;
  }

  async prepare(principal: KeyPrincipal, body: ChatCompletionRequest, requestId: string): Promise<ChatCall> {
    const route = await this.resolve(principal, body.model);
    const rules = enforceChatModelRules(route.model, body);
    const { hold_id } = await this.billing.placeHold({
      request_id: requestId,
      account_id: principal.account_id,
      key_id: principal.key_id,
      amount_micros: worstCaseChatCostMicros(route.model, body, rules.holdOutputTokens),
    });
    const carrier: Record<string, string> = {};
    propagation.inject(context.active(), carrier);
    return {
      request_id: requestId,
      account_id: principal.account_id,
      key_id: principal.key_id,
      hold_id,
      route,
      body,
      traceparent: carrier.traceparent,
    };
  }

  async complete(call: ChatCall): Promise<ChatCompletionResponse> {
    try {
      return await this.chat.complete(call);
    } catch (err) {
      await this.release(call);
      throw err;
    }
  }

  /** The stream as the chat service produces it; on failure the hold goes back (usage, if any, was recorded). */
  async *stream(call: ChatCall, signal: AbortSignal): AsyncIterable<ChatCompletionChunk> {
    let ok = false;
    try {
      yield* this.chat.stream(call, signal);
      ok = true;
    } finally {
      if (!ok) await this.release(call);
    }
  }

  /** Give the hold back: the call failed before producing anything billable (usage, if any, was recorded). */
  async release(call: Pick<ChatCall, 'hold_id' | 'request_id'>): Promise<void> {
    if (!call.hold_id) return;
    await this.billing.releaseHold(call.hold_id).catch((err: unknown) =>
      // The hold expires on its own; a failed release only delays the money's return.
      this.logger.warn({ request_id: call.request_id, err: String(err) }, 'hold release failed'),
    );
  }
}
