/**
 * Chat-completions content (a string or parts) → Anthropic content blocks. Images become image
 * blocks: a `data:` URL is decoded into a base64 source (a PDF data URL becomes a document block),
 * an http(s) URL becomes a url source. A part Anthropic cannot take is refused with a 400 naming it,
 * rather than silently dropped.
 */
import {
  errors,
  type AnthropicContentBlock,
  type AnthropicImageBlock,
  type AnthropicTextBlock,
  type ChatMessage,
} from '@unigate/contracts';

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
type ImageMediaType = (typeof IMAGE_TYPES)[number];
type CacheControl = AnthropicTextBlock['cache_control'];

export function chatContentToAnthropicBlocks(content: ChatMessage['content'], path: string): AnthropicContentBlock[] {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((part, j) => {
    const param = `${path}.content[${j}]`;
    // The chat schema may grow part types (audio, video) that Anthropic has no block for.
    const kind = (part as { type: string }).type;
    const cacheControl = (part as { cache_control?: CacheControl }).cache_control;
    const extra = cacheControl ? { cache_control: cacheControl } : {};
    if (part.type === 'text') return { type: 'text', text: part.text, ...extra };
    if (part.type === 'image_url') return { ...imageOrDocument(part.image_url.url, `${param}.image_url.url`), ...extra };
    throw errors.invalidRequest(`Invalid '${param}.type': content of type '${kind}' is not supported by this model.`, `${param}.type`);
  });
}

function imageOrDocument(url: string, param: string): AnthropicContentBlock {
  if (/^https?:\/\//i.test(url)) return { type: 'image', source: { type: 'url', url } };
  const data = /^data:([^;,]+)((?:;[^;,]+)*),(.*)$/s.exec(url);
  if (!data) throw errors.invalidRequest(`Invalid '${param}': an image must be an http(s) URL or a base64 data: URL.`, param);
  const [, mediaType, params, payload] = data;
  if (!params.split(';').includes('base64')) {
    throw errors.invalidRequest(`Invalid '${param}': a data: URL must be base64-encoded for this model.`, param);
  }
  const type = mediaType.toLowerCase();
  if (type === 'application/pdf') return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: payload } };
  if (!(IMAGE_TYPES as readonly string[]).includes(type)) {
    throw errors.invalidRequest(`Invalid '${param}': image type '${type}' is not supported; use one of ${IMAGE_TYPES.join(', ')}.`, param);
  }
  const image: AnthropicImageBlock = { type: 'image', source: { type: 'base64', media_type: type as ImageMediaType, data: payload } };
  return image;
}

/** Marks the last block as a cache breakpoint (everything up to it is cached). */
export function withCacheControl(blocks: AnthropicContentBlock[], cacheControl: CacheControl): AnthropicContentBlock[] {
  if (!cacheControl || blocks.length === 0) return blocks;
  const last = blocks[blocks.length - 1];
  if (last.type === 'thinking' || last.type === 'redacted_thinking') return blocks;
  return [...blocks.slice(0, -1), { ...last, cache_control: cacheControl } as AnthropicContentBlock];
}
