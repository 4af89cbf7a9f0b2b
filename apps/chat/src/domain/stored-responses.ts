/**
 * Conversation state for POST /v1/responses, around the service's runner (an EndpointPort decorator,
 * so the edge stays generic and the adapters stay translation):
 *
 * - before the call, `previous_response_id` is resolved in the caller's account — another account's
 *   or an unknown id is a 404 — and the earlier turns are put in front of the new input (a 400 naming
 *   an item of that input names the client's own item, or previous_response_id for a stored one);
 * - after it, a response asked to be stored (`store` is true unless the client says false) is kept —
 *   its own turn, linked to the response it continued — before the terminal event goes out, so the
 *   client's next request always finds it. If the conversation expired while the call ran, the turn is
 *   kept as a first one holding the whole conversation it was answered from. Only completed and
 *   incomplete responses are kept; nothing is kept for store:false.
 *
 * Every other endpoint passes straight through.
 */
import {
  errors,
  GatewayError,
  inputItems,
  withParam,
  responsesSpec,
  type CallMeter,
  type EndpointCall,
  type EndpointPort,
  type ResponsesInputItem,
  type ResponsesRequest,
  type ResponsesResponse,
  type ResponsesStreamEvent,
} from '@unigate/contracts';
import type { ResponsesStore } from './responses-store';

/** Where a turn that cannot be kept is told of. */
export interface StoreWarnings {
  warn(fields: Record<string, unknown>, message: string): void;
}

const KEPT_STATUSES = new Set(['completed', 'incomplete']);

export class StoredResponses implements EndpointPort {
  constructor(
    private readonly inner: EndpointPort,
    private readonly store: ResponsesStore,
    private readonly log?: StoreWarnings,
  ) {}

  // A held call's stored conversation is read while it is held (a read in the caller's own account);
  // what runs after that is the inner port's, which waits for the admission as it does for any call.
  get preparesWhileHeld(): boolean | undefined {
    return this.inner.preparesWhileHeld;
  }

  async call(call: EndpointCall, signal?: AbortSignal, meter?: CallMeter, admission?: Promise<void>): Promise<unknown> {
    if (call.endpoint !== responsesSpec.name) return this.inner.call(call, signal, meter, admission);
    const { resolved, earlier } = await this.resolve(call);
    const response = (await this.inner
      .call(resolved, signal, meter, admission)
      .catch((err: unknown) => Promise.reject(clientItem(err, call, earlier.length)))) as ResponsesResponse;
    await this.keep(call, earlier, response);
    return response;
  }

  async *stream(call: EndpointCall, signal: AbortSignal, meter?: CallMeter, admission?: Promise<void>): AsyncIterable<unknown> {
    if (call.endpoint !== responsesSpec.name) return yield* this.inner.stream(call, signal, meter, admission);
    const { resolved, earlier } = await this.resolve(call);
    try {
      for await (const item of this.inner.stream(resolved, signal, meter, admission)) {
        const ev = item as ResponsesStreamEvent;
        if (ev.type === 'response.completed' || ev.type === 'response.incomplete') await this.keep(call, earlier, ev.response);
        yield item;
      }
    } catch (err) {
      throw clientItem(err, call, earlier.length);
    }
  }

  /** The call with the stored conversation in front of its input, and that conversation. */
  private async resolve(call: EndpointCall): Promise<{ resolved: EndpointCall; earlier: ResponsesInputItem[] }> {
    const body = call.body as ResponsesRequest;
    const previous = body.previous_response_id;
    if (!previous) return { resolved: call, earlier: [] };
    const earlier = await this.store.conversation(call.account_id, previous);
    if (!earlier) throw errors.notFound(`Previous response with id '${previous}'`, 'previous_response_id');
    const input: ResponsesInputItem[] = [...earlier, ...inputItems(body)];
    return { resolved: { ...call, body: { ...body, input } }, earlier };
  }

  /** This turn only: the earlier ones are read back through `previous_id`. */
  private async keep(original: EndpointCall, earlier: ResponsesInputItem[], response: ResponsesResponse): Promise<void> {
    const body = original.body as ResponsesRequest;
    if (body.store === false || !KEPT_STATUSES.has(response.status ?? 'completed')) return;
    const turn = {
      id: response.id,
      account_id: original.account_id,
      model: body.model,
      previous_id: body.previous_response_id ?? null,
      items: [...inputItems(body), ...(response.output as ResponsesInputItem[])],
      response,
    };
    if (await this.store.save(turn)) return;
    // The conversation expired during the call (an idle one continued as the sweep ran): this turn
    // starts a new one holding what it was answered from, so the client can go on from its answer.
    if (turn.previous_id !== null && (await this.store.save({ ...turn, previous_id: null, items: [...earlier, ...turn.items] }))) return;
    // A first turn is refused only when another account's response has its id (an upstream sent the
    // id again): that row stays its owner's, and this answer goes unstored.
    this.log?.warn(
      { request_id: original.request_id, response_id: response.id, model: body.model },
      'response not stored: the upstream answered with the id of a response stored for another account',
    );
  }
}

/**
 * A 400 naming an item of the input the call ran with (`input[5].call_id`, the stored conversation in
 * front), naming the client's own item instead (`input[1].call_id`), or `previous_response_id` for an
 * item of the stored conversation.
 */
function clientItem(err: unknown, call: EndpointCall, earlier: number): unknown {
  if (earlier === 0 || !GatewayError.is(err) || err.status !== 400 || err.param === null) return err;
  const item = /^input\[(\d+)\]/.exec(err.param);
  if (!item) return err;
  const index = Number(item[1]) - earlier;
  if (index < 0) return withParam(err, 'previous_response_id');
  const sentAsText = typeof (call.body as ResponsesRequest).input === 'string';
  return withParam(err, sentAsText ? 'input' : `input[${index}]${err.param.slice(item[0].length)}`);
}
