/**
 * POST /v1/responses: OpenAI's Responses API (Codex CLI speaks only this), streaming and not, on every
 * chat model — natively where the upstream speaks it, translated from chat completions elsewhere.
 * Errors are Shape B; a stream that fails after it began ends with `response.failed`.
 */
import { renderShapeB, type GatewayError } from '../../errors';
import { JsonText } from '../../ports';
import { RESPONSES_TERMINAL_EVENTS, responsesStreamEventSchema, type ResponsesStreamEvent } from '../../responses/events';
import { responsesRequestSchema, type ResponsesRequest } from '../../responses/request';
import { responsesResponseSchema, type ResponsesResponse } from '../../responses/response';
import { fixedShape, type EndpointSpec } from '../endpoint-spec';
import { planResponses } from './responses-plan';

/** The id of the response a request produces when the gateway writes it (translated upstreams). */
export function responseIdFor(requestId: string): string {
  return `resp_${requestId.replace(/^req_/, '')}`;
}

/** The `error` of a failed response, as OpenAI writes it (Codex retries a rate_limit_exceeded). */
export function responseFailure(err: GatewayError): { code: string; message: string } {
  return { code: err.status === 429 ? 'rate_limit_exceeded' : 'server_error', message: renderShapeB(err).error.message };
}

const TERMINAL: ReadonlySet<string> = new Set(RESPONSES_TERMINAL_EVENTS);

export const responsesSpec: EndpointSpec<ResponsesRequest, ResponsesResponse, ResponsesStreamEvent> = {
  name: 'responses',
  path: '/v1/responses',
  summary: 'A model response in the OpenAI Responses format, with stored conversation state (previous_response_id).',
  example: { model: 'gamma-2.5-flash', input: 'Hello', max_output_tokens: 16 },
  service: 'chat',
  request: responsesRequestSchema,
  response: responsesResponseSchema,
  event: responsesStreamEventSchema,
  kinds: ['chat'],
  units: ['input_tokens', 'cached_input_tokens', 'cache_write_input_tokens', 'cache_write_1h_input_tokens', 'output_tokens'],
  errorShape: fixedShape('B'),
  modelOf: (req) => req.model,
  isStream: (req) => req.stream === true,
  plan: (model, req) => ({ worstCase: planResponses(model, req) }),
  sse: {
    eventName: (ev) => ev.type,
    // The terminal event Codex and the SDK read a mid-stream failure from; numbered after what went out.
    // A translated stream writes its own, with the response so far; this one knows only the failure.
    error: (err, requestId, sent) => ({
      event: 'response.failed',
      data: {
        type: 'response.failed',
        sequence_number: sent,
        response: { id: responseIdFor(requestId), object: 'response', status: 'failed', output: [], error: responseFailure(err) },
      },
    }),
    ended: (item) => TERMINAL.has(item instanceof JsonText ? (item.event ?? '') : item.type),
  },
};
