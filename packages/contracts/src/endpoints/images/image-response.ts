/** The OpenAI images answer (reference/openai.md) that both delta endpoints give. */
import { z } from 'zod';

const count = z.number().int().nonnegative();

export const openAiImagesResponseSchema = z.looseObject({
  created: z.number().int(),
  data: z.array(z.looseObject({ b64_json: z.string().optional(), url: z.string().optional(), revised_prompt: z.string().optional() })),
  background: z.string().optional(),
  output_format: z.string().optional(),
  quality: z.string().optional(),
  size: z.string().optional(),
  usage: z
    .looseObject({
      input_tokens: count,
      input_tokens_details: z.looseObject({ text_tokens: count, image_tokens: count }).optional(),
      output_tokens: count,
      total_tokens: count,
    })
    .optional(),
});
export type OpenAiImagesResponse = z.infer<typeof openAiImagesResponseSchema>;
