/**
 * Where and how a Responses request is sent. `channel.base_url` includes the version prefix, as for
 * chat completions (`https://api.openai.com/v1`); the request goes to `${base_url}/responses`.
 */
import type { Channel, ResponsesRequest } from '@unigate/contracts';

export function responsesUrl(channel: Channel): string {
  return `${channel.base_url.replace(/\/+$/, '')}/responses`;
}

export function responsesHeaders(channel: Channel, stream: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: stream ? 'text/event-stream' : 'application/json',
  };
  if (channel.api_key) headers.authorization = `Bearer ${channel.api_key}`;
  return headers;
}

/**
 * The client's body with the channel's model name and the streaming mode we need. The gateway keeps
 * conversations itself and has already put the earlier turns into `input`, so `previous_response_id`
 * (our id, unknown upstream) is not sent.
 */
export function toUpstreamResponsesBody(channel: Channel, req: ResponsesRequest, stream: boolean): Record<string, unknown> {
  const { stream: _stream, previous_response_id: _previous, ...rest } = req;
  return { ...rest, model: channel.upstream_model, stream };
}
