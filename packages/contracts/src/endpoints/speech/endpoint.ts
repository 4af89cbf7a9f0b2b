/**
 * POST /v1/audio/speech (SPEC.md §2.8): text in, audio bytes out, streamed with their content type as
 * they come. Billed per character of `input`; the hold reserves exactly that.
 */
import { z } from 'zod';
import type { ModelInfo } from '../../catalog';
import { GatewayError } from '../../errors';
import { characterCount } from '../../stored-text';
import type { Usage } from '../../pricing';
import { fixedShape, type EndpointSpec } from '../endpoint-spec';

/** Characters per request (OpenAI's limit; the upstream bills and synthesises per character). */
export const MAX_SPEECH_CHARS = 4096;

export const speechRequestSchema = z.object({
  model: z.string().min(1),
  input: z
    .string({ error: 'input is required: the text to synthesise' })
    .min(1, 'input must not be empty')
    .max(MAX_SPEECH_CHARS, `input is at most ${MAX_SPEECH_CHARS} characters`),
  voice: z.string().min(1).max(64).optional(),
  response_format: z.string().max(16).optional(),
  instructions: z.string().max(MAX_SPEECH_CHARS).optional(),
  /** Accepted for compatibility with OpenAI clients; it has no effect (use `instructions`). */
  speed: z.number().positive().max(100).optional(),
  /** Sent by newer OpenAI clients; the answer is always the raw audio stream. */
  stream_format: z.enum(['audio', 'sse']).optional(),
});
export type SpeechRequest = z.infer<typeof speechRequestSchema>;

/** OpenAI's voice names: clients written for it send them; they fall back to the default voice. */
export const FOREIGN_VOICES = [
  'alloy',
  'ash',
  'ballad',
  'coral',
  'echo',
  'fable',
  'onyx',
  'nova',
  'sage',
  'shimmer',
  'verse',
  'marin',
  'cedar',
];

const invalid = (param: string, message: string, code = 'invalid_value') => new GatewayError({ status: 400, code, param, message });

/** The voice a request gets: a known one, or the default for another vendor's voice name; else a 400. */
export function speechVoice(model: ModelInfo, req: Pick<SpeechRequest, 'voice'>): string {
  const limits = model.speech;
  const fallback = limits?.default_voice ?? 'Cherry';
  if (req.voice === undefined || !limits) return req.voice ?? fallback;
  const known = limits.voices.find((v) => v.toLowerCase() === req.voice!.toLowerCase());
  if (known) return known;
  if (FOREIGN_VOICES.includes(req.voice.toLowerCase())) return fallback;
  throw invalid('voice', `Unknown voice '${req.voice}' for ${model.id}. Voices: ${limits.voices.join(', ')}.`, 'invalid_voice');
}

/** The audio format a request gets on `model`. */
export function speechFormat(model: ModelInfo, req: Pick<SpeechRequest, 'response_format'>): string {
  return req.response_format ?? model.speech?.default_response_format ?? 'mp3';
}

export const SPEECH_CONTENT_TYPES: Readonly<Record<string, string>> = { mp3: 'audio/mpeg', wav: 'audio/wav' };

/** The model's rules (a 400 naming the field); the worst case is every character of the input. */
export function planSpeech(model: ModelInfo, req: SpeechRequest): Usage {
  const limits = model.speech;
  if (req.input.trim() === '') throw invalid('input', "Invalid 'input': the text to synthesise is empty.");
  speechVoice(model, req);
  if (req.response_format !== undefined && limits && !limits.response_formats.includes(req.response_format)) {
    const only = limits.response_formats.join(' or ');
    throw invalid(
      'response_format',
      limits.response_formats.length === 1
        ? `${model.id} does not take response_format '${req.response_format}': it outputs ${only} only.`
        : `Invalid 'response_format': ${model.id} outputs ${only}; got '${req.response_format}'.`,
      'unsupported_parameter',
    );
  }
  if (req.instructions !== undefined && !limits?.supports_instructions) {
    throw invalid('instructions', `${model.id} does not take 'instructions'; use an instruct speech model.`, 'unsupported_parameter');
  }
  // Characters as the vendor counts them: code points, not UTF-16 units.
  return { characters: characterCount(req.input) };
}

export const speechSpec: EndpointSpec<SpeechRequest, never> = {
  name: 'audio.speech',
  path: '/v1/audio/speech',
  example: { model: 'alpha3-tts-flash', input: 'Hello', voice: 'Cherry' },
  service: 'media',
  request: speechRequestSchema,
  response: z.never(),
  kinds: ['speech'],
  kindMismatchCode: 'endpoint_model_mismatch',
  units: ['characters'],
  errorShape: fixedShape('B'),
  // SPEC.md §7: any model but the speech models is a 400 here, one the catalogue does not know too (not a 404).
  unknownModel: (model) => ({
    family: 'alpha',
    error: invalid(
      'model',
      `The model '${model}' is not a speech model and cannot be used with /v1/audio/speech.`,
      'endpoint_model_mismatch',
    ),
  }),
  modelOf: (req) => req.model,
  isStream: () => true,
  plan: (model, req) => ({ worstCase: planSpeech(model, req) }),
  binary: { contentType: (req, model) => SPEECH_CONTENT_TYPES[speechFormat(model, req)] ?? 'application/octet-stream' },
};
