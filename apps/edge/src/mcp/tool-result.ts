/**
 * An HTTP answer as an MCP tool result: JSON as text (and as structured content), images found in it
 * as image content, audio bytes as audio content; an error status as a tool error carrying the HTTP
 * error's own message, the whole error body kept as structured content.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { LocalAnswer } from '../http/local-calls';

type Content = CallToolResult['content'][number];

export function toToolResult(answer: LocalAnswer): CallToolResult {
  const meta = { _meta: { request_id: answer.requestId, http_status: answer.status } };
  const mime = answer.contentType.split(';')[0].trim().toLowerCase();
  if (answer.status >= 400) {
    const body = parseJson(answer.body);
    return {
      ...meta,
      isError: true,
      content: [{ type: 'text', text: errorMessage(body, answer) }],
      ...(isObject(body) && { structuredContent: body }),
    };
  }
  if (mime.startsWith('audio/')) return { ...meta, content: [{ type: 'audio', data: answer.body.toString('base64'), mimeType: mime }] };
  if (mime.startsWith('image/')) return { ...meta, content: [{ type: 'image', data: answer.body.toString('base64'), mimeType: mime }] };
  if (mime === 'application/json') {
    const body = parseJson(answer.body);
    const images = imagesIn(body);
    // The bytes go out once, as images; the JSON keeps a pointer to them.
    const shown = images.length > 0 ? withoutImageBytes(body as Record<string, unknown>) : body;
    return {
      ...meta,
      content: [{ type: 'text', text: images.length > 0 ? JSON.stringify(shown) : answer.body.toString('utf8') }, ...images],
      ...(isObject(shown) && { structuredContent: shown }),
    };
  }
  return { ...meta, content: [{ type: 'text', text: answer.body.toString('utf8') }] };
}

/** The message of any of the error shapes (SPEC.md §7): Shape B and Anthropic's nest it, Shape A does not. */
function errorMessage(body: unknown, answer: LocalAnswer): string {
  if (isObject(body)) {
    const nested = isObject(body.error) ? body.error.message : undefined;
    const message = nested ?? body.message;
    if (typeof message === 'string') return message;
  }
  return `HTTP ${answer.status}: ${answer.body.toString('utf8')}`;
}

/** Base64 images of an image answer (`data[].b64_json`, typed by `output_format`), shown as images. */
function imagesIn(body: unknown): Content[] {
  if (!isObject(body) || !Array.isArray(body.data)) return [];
  const format = typeof body.output_format === 'string' ? body.output_format : 'png';
  return body.data
    .filter((item): item is { b64_json: string } => isObject(item) && typeof item.b64_json === 'string')
    .map((item) => ({ type: 'image', data: item.b64_json, mimeType: `image/${format === 'jpg' ? 'jpeg' : format}` }));
}

function withoutImageBytes(body: Record<string, unknown>): Record<string, unknown> {
  const data = (body.data as unknown[]).map((item, i) =>
    isObject(item) && typeof item.b64_json === 'string' ? { ...item, b64_json: `(image content #${i + 1} of this result)` } : item,
  );
  return { ...body, data };
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
