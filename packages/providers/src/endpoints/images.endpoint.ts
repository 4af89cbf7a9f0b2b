/**
 * images.generations and images.edits on the service side. Generations pick the adapter of the
 * model family's protocol: OpenAI images (delta) or DashScope multimodal (alpha, whose results go to
 * the object store); edits are the delta family's.
 */
import {
  gammaGenerationSchema,
  parseOrThrow,
  imageEditsSpec,
  imageGenerationsSpec,
  type ImageEditRequest,
  type ImageGenerationRequest,
  type OpenAiImagesResponse,
} from '@unigate/contracts';
import type { ServiceEndpoint } from '../adapter';
import type { AdapterDeps } from '../adapter-deps';
import { alphaGenerate } from '../dashscope/dashscope-images';
import { gammaGenerate } from '../gemini-interactions/gemini-interactions-images';
import { OpenAiImagesClient } from '../openai-images/openai-images-client';

export function imageGenerationsEndpoint(deps: AdapterDeps = {}): ServiceEndpoint<ImageGenerationRequest, unknown> {
  return {
    spec: imageGenerationsSpec,
    adapter(protocol, http) {
      if (protocol === 'dashscope') return { call: (channel, req, ctx) => alphaGenerate(http, deps.results, channel, req, ctx) };
      if (protocol === 'gemini-interactions')
        return {
          call: (channel, req, ctx) => gammaGenerate(http, deps.interactions, channel, parseOrThrow(gammaGenerationSchema, req), ctx),
        };
      if (protocol !== 'openai-images') return undefined;
      const client = new OpenAiImagesClient(http);
      return { call: (channel, req, ctx) => client.generate(channel, req, ctx) };
    },
  };
}

export const imageEditsEndpoint: ServiceEndpoint<ImageEditRequest, OpenAiImagesResponse> = {
  spec: imageEditsSpec,
  adapter(protocol, http) {
    if (protocol !== 'openai-images') return undefined;
    const client = new OpenAiImagesClient(http);
    return { call: (channel, req, ctx) => client.edit(channel, req, ctx) };
  },
};
