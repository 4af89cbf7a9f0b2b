/**
 * Where and how an Anthropic Messages request is sent. `channel.base_url` is the host root
 * (`https://api.anthropic.com`, or the simulator's origin); the adapter appends `/v1/messages`.
 * The key goes in `x-api-key`, the way Anthropic's own API and Claude Code send it.
 */
import type { Channel } from '@unigate/contracts';

export const ANTHROPIC_VERSION = '2023-06-01';

export function messagesUrl(channel: Channel, path: '' | '/count_tokens' = ''): string {
  return `${channel.base_url.replace(/\/+$/, '')}/v1/messages${path}`;
}

export interface AnthropicHeaderOptions {
  /** Forwarded as `anthropic-beta` (comma-separated feature names), e.g. from a native client. */
  beta?: string;
}

export function anthropicHeaders(channel: Channel, stream: boolean, opts: AnthropicHeaderOptions = {}): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: stream ? 'text/event-stream' : 'application/json',
    'anthropic-version': ANTHROPIC_VERSION,
  };
  if (channel.api_key) headers['x-api-key'] = channel.api_key;
  if (opts.beta) headers['anthropic-beta'] = opts.beta;
  return headers;
}

/** The client's body with the channel's model name and the streaming mode we need. */
export function toUpstreamBody<T extends { model: string; stream?: boolean }>(
  channel: Channel,
  body: T,
  stream: boolean | undefined,
): Record<string, unknown> {
  const { stream: _stream, ...rest } = body;
  const out: Record<string, unknown> = { ...rest, model: channel.upstream_model };
  if (stream) out.stream = true;
  return out;
}
