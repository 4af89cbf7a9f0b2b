/**
 * Alpha3 speech over DashScope: one synthesis call on the multimodal-generation path answers a link to
 * the audio (reference/dashscope.md), which is then fetched under the SSRF guard.
 */
import type { Channel } from '@unigate/contracts';
import { z } from 'zod';
import type { HttpClient } from '../http/http-client';
import { postUpstreamJson } from '../http/post-upstream';
import { bearerJson } from '../openai-embeddings/openai-embeddings-client';
import { dashscopeErrorPolicy, dashscopeUrl } from './dashscope-errors';

export const DASHSCOPE_MULTIMODAL_PATH = '/api/v1/services/aigc/multimodal-generation/generation';

const ttsAnswerSchema = z.looseObject({
  output: z.looseObject({ audio: z.looseObject({ url: z.string().min(1) }) }),
  usage: z.looseObject({ characters: z.number().int().nonnegative().optional() }).optional(),
});

export interface TtsRequest {
  text: string;
  voice: string;
  instructions?: string;
}

export interface TtsAnswer {
  audioUrl: string;
  /** Characters as the upstream billed them, when it says. */
  characters?: number;
}

export async function synthesize(http: HttpClient, channel: Channel, req: TtsRequest, signal: AbortSignal): Promise<TtsAnswer> {
  const body = {
    model: channel.upstream_model,
    input: {
      text: req.text,
      voice: req.voice,
      language_type: 'Auto',
      ...(req.instructions !== undefined && { instructions: req.instructions }),
    },
  };
  const data = await postUpstreamJson(
    http,
    {
      url: dashscopeUrl(channel.base_url, DASHSCOPE_MULTIMODAL_PATH),
      headers: bearerJson(channel.api_key),
      body: JSON.stringify(body),
      signal,
    },
    dashscopeErrorPolicy,
    { schema: ttsAnswerSchema, what: 'speech answer' },
  );
  return { audioUrl: data.output.audio.url, characters: data.usage?.characters };
}
