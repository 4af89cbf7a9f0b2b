/**
 * Where and how a Gemini generateContent request goes. `channel.base_url` is the host root (the
 * vendor's `https://generativelanguage.googleapis.com`, or the simulator's origin); the adapter
 * appends `/v1beta/models/{model}:generateContent`, or `:streamGenerateContent?alt=sse` for a stream
 * (without `alt=sse` Gemini streams one JSON array instead of SSE). The key goes in `x-goog-api-key`.
 */
import type { Channel } from '@unigate/contracts';

export function geminiGenerateUrl(channel: Channel, stream: boolean): string {
  const root = channel.base_url.replace(/\/+$/, '');
  // Operators sometimes copy the resource name (`models/gemini-2.5-pro`); the path adds that prefix itself.
  const model = encodeURIComponent(channel.upstream_model.replace(/^models\//, ''));
  return stream ? `${root}/v1beta/models/${model}:streamGenerateContent?alt=sse` : `${root}/v1beta/models/${model}:generateContent`;
}

export function geminiHeaders(channel: Channel, stream: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: stream ? 'text/event-stream' : 'application/json',
  };
  if (channel.api_key) headers['x-goog-api-key'] = channel.api_key;
  return headers;
}
