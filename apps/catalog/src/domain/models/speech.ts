/** Speech models (SPEC.md §2.8). Billed per character (price per million characters). */
import type { ModelInfo } from '@unigate/contracts';
import { usd } from './usd';

/** `Cherry` is the default and the fallback for other vendors' voice names (SPEC.md §2.8). */
export const ALPHA_VOICES = [
  'Cherry',
  'Ethan',
  'Nofish',
  'Jennifer',
  'Ryan',
  'Katerina',
  'Elias',
  'Jada',
  'Dylan',
  'Sunny',
  'Li',
  'Marcus',
  'Roy',
  'Peter',
  'Rocky',
  'Kiki',
  'Eric',
];

export const SPEECH_MODELS: ModelInfo[] = [
  {
    id: 'alpha3-tts-flash',
    family: 'alpha',
    kind: 'speech',
    owned_by: 'alpha',
    created: 1757289600,
    description: 'Alpha text-to-speech, mixed languages, MP3 or WAV.',
    prices: { input_per_mtok: 0, output_per_mtok: 0, per_mchar: usd(10) },
    endpoints: ['/v1/audio/speech'],
    speech: {
      voices: ALPHA_VOICES,
      default_voice: 'Cherry',
      response_formats: ['mp3', 'wav'],
      default_response_format: 'mp3',
      supports_instructions: false,
    },
  },
  {
    id: 'alpha3-tts-instruct-flash',
    family: 'alpha',
    kind: 'speech',
    owned_by: 'alpha',
    created: 1764547200,
    description: 'Alpha text-to-speech steered by natural-language instructions; WAV only.',
    prices: { input_per_mtok: 0, output_per_mtok: 0, per_mchar: usd(11.5) },
    endpoints: ['/v1/audio/speech'],
    speech: {
      voices: ALPHA_VOICES,
      default_voice: 'Cherry',
      response_formats: ['wav'],
      default_response_format: 'wav',
      supports_instructions: true,
    },
  },
];
