/**
 * Remote compaction for POST /v1/responses (contracts responses/compaction.ts), around the service's
 * runner (an EndpointPort decorator, like StoredResponses): the gateway's own compaction items become
 * the summary they carry on every upstream, and a request holding a `compaction_trigger` is answered
 * with exactly one `compaction` item — the model is asked for a summary (no tools offered, one
 * non-streaming call, billed as any call) and its text comes back inside that item, as a response or,
 * for a stream, as the events of a response holding only that item.
 *
 * Every other endpoint, and a request with nothing of compaction in it, passes straight through.
 */
import {
  asksForCompaction,
  compactionInput,
  compactionItem,
  inputItems,
  responsesSpec,
  touchesCompaction,
  type CallMeter,
  type EndpointCall,
  type EndpointPort,
  type ResponsesRequest,
  type ResponsesResponse,
  type ResponsesStreamEvent,
} from '@unigate/contracts';

export class RemoteCompaction implements EndpointPort {
  constructor(private readonly inner: EndpointPort) {}

  get preparesWhileHeld(): boolean | undefined {
    return this.inner.preparesWhileHeld;
  }

  async call(call: EndpointCall, signal?: AbortSignal, meter?: CallMeter, admission?: Promise<void>): Promise<unknown> {
    if (!this.applies(call)) return this.inner.call(call, signal, meter, admission);
    const body = call.body as ResponsesRequest;
    if (!asksForCompaction(body)) return this.inner.call(withInput(call, body), signal, meter, admission);
    return compacted((await this.inner.call(summaryCall(call, body), signal, meter, admission)) as ResponsesResponse);
  }

  async *stream(call: EndpointCall, signal: AbortSignal, meter?: CallMeter, admission?: Promise<void>): AsyncIterable<unknown> {
    if (!this.applies(call)) return yield* this.inner.stream(call, signal, meter, admission);
    const body = call.body as ResponsesRequest;
    if (!asksForCompaction(body)) return yield* this.inner.stream(withInput(call, body), signal, meter, admission);
    const answer = compacted((await this.inner.call(summaryCall(call, body), signal, meter, admission)) as ResponsesResponse);
    yield* responseEvents(answer);
  }

  private applies(call: EndpointCall): boolean {
    return call.endpoint === responsesSpec.name && touchesCompaction(call.body as ResponsesRequest);
  }
}

/** The call with the gateway's own compaction items read as their summaries. */
function withInput(call: EndpointCall, body: ResponsesRequest): EndpointCall {
  return { ...call, body: { ...body, input: compactionInput(inputItems(body)) } };
}

/** The call that asks the model for the summary: the prompt in place of the trigger, no tools, one answer. */
function summaryCall(call: EndpointCall, body: ResponsesRequest): EndpointCall {
  const { tools: _tools, tool_choice: _choice, parallel_tool_calls: _parallel, ...rest } = body;
  return { ...call, body: { ...rest, input: compactionInput(inputItems(body)), stream: false } };
}

/** The model's answer as a compaction: its text, in the one item the client expects. */
function compacted(answer: ResponsesResponse): ResponsesResponse {
  const summary = answer.output
    .flatMap((item) => (item.type === 'message' ? item.content.flatMap((part) => (part.type === 'output_text' ? [part.text] : [])) : []))
    .join('\n')
    .trim();
  return { ...answer, output: [compactionItem(`cmp_${answer.id.replace(/^resp_/, '')}`, summary)] };
}

/** A finished response as the events a stream of it carries, in order. */
function responseEvents(response: ResponsesResponse): ResponsesStreamEvent[] {
  const started = { ...response, status: 'in_progress' as const, output: [] };
  const events: Array<Record<string, unknown>> = [
    { type: 'response.created', response: started },
    { type: 'response.in_progress', response: started },
    ...response.output.flatMap((item, i) => [
      { type: 'response.output_item.added', output_index: i, item },
      { type: 'response.output_item.done', output_index: i, item },
    ]),
    { type: response.status === 'incomplete' ? 'response.incomplete' : 'response.completed', response },
  ];
  return events.map((event, sequence_number) => ({ ...event, sequence_number }) as ResponsesStreamEvent);
}
