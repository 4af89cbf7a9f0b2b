/**
 * OpenAI's images API (reference/openai.md): generations as JSON, edits as multipart with the files
 * the edge received. The answer passes through as OpenAI's shape; usage is read from it in the
 * delta family's units (text input, image input, output tokens; images by size for delta-e-2).
 */
import {
  isTokenPriced,
  nativeQuality,
  openAiImagesResponseSchema,
  sniffImage,
  type Channel,
  type ModelInfo,
  type OpenAiImagesResponse,
  type Usage,
} from '@unigate/contracts';
import type { CallContext, Measured } from '../adapter';
import type { HttpClient } from '../http/http-client';
import { postUpstreamJson } from '../http/post-upstream';
import { openAiErrorPolicy } from '../openai-chat/openai-chat-errors';
import { bearerJson, v1Url } from '../openai-embeddings/openai-embeddings-client';
import { multipartBody } from './multipart-body';

const MIME = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' } as const;

/** The billed usage of an answer: the upstream's tokens, or images by size for the per-image legacy model. */
export function imagesUsage(model: ModelInfo, answer: OpenAiImagesResponse, size: string | undefined): Usage {
  if (!isTokenPriced(model)) return { images: answer.data.length, image_size: size ?? model.image?.default_size };
  const u = answer.usage;
  if (!u) return { images: answer.data.length };
  const imageTokens = u.input_tokens_details?.image_tokens ?? 0;
  return {
    input_tokens: u.input_tokens_details?.text_tokens ?? u.input_tokens - imageTokens,
    image_input_tokens: imageTokens,
    output_tokens: u.output_tokens,
  };
}

export class OpenAiImagesClient {
  constructor(private readonly http: HttpClient) {}

  async generate(channel: Channel, req: Record<string, unknown>, ctx: CallContext): Promise<Measured<OpenAiImagesResponse>> {
    const body = {
      ...req,
      model: channel.upstream_model,
      ...(req.quality !== undefined && { quality: nativeQualityFor(ctx.model, req.quality) }),
    };
    const answer = await postUpstreamJson(
      this.http,
      {
        url: v1Url(channel.base_url, '/images/generations'),
        headers: bearerJson(channel.api_key),
        body: JSON.stringify(body),
        signal: ctx.signal,
      },
      openAiErrorPolicy,
      { schema: openAiImagesResponseSchema, what: 'images answer' },
    );
    return { value: answer, usage: imagesUsage(ctx.model, answer, req.size as string | undefined) };
  }

  async edit(channel: Channel, req: Record<string, unknown>, ctx: CallContext): Promise<Measured<OpenAiImagesResponse>> {
    const fields: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(req)) if (v !== undefined) fields[k] = String(v);
    fields.model = channel.upstream_model;
    if (req.quality !== undefined) fields.quality = nativeQualityFor(ctx.model, req.quality);
    // The content type is the one the bytes say, not what the client declared.
    const files = ctx.files.map((f) => {
      const format = sniffImage(f.data)?.format;
      return {
        field: f.field,
        filename: f.filename || `${f.field.replace('[]', '')}.${format ?? 'png'}`,
        contentType: format ? MIME[format] : f.content_type,
        data: f.data,
      };
    });
    const { body, contentType } = multipartBody(fields, files);
    const answer = await postUpstreamJson(
      this.http,
      {
        url: v1Url(channel.base_url, '/images/edits'),
        headers: { ...bearerJson(channel.api_key), 'content-type': contentType },
        body,
        signal: ctx.signal,
      },
      openAiErrorPolicy,
      { schema: openAiImagesResponseSchema, what: 'images answer' },
    );
    return { value: answer, usage: imagesUsage(ctx.model, answer, req.size as string | undefined) };
  }
}

/** The token-priced models take the native levels only; the legacy model keeps its own names. */
function nativeQualityFor(model: ModelInfo, quality: unknown): string {
  return isTokenPriced(model) ? nativeQuality(String(quality))! : String(quality);
}
