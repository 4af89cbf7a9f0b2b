/** The built-in catalogue: every model SPEC.md names, in the order /v1/models lists them. */
import type { ModelInfo } from '@unigate/contracts';
import { CHAT_MODELS } from './chat';
import { EMBEDDING_MODELS } from './embedding';
import { IMAGE_MODELS } from './image';
import { SPEECH_MODELS } from './speech';
import { VIDEO_MODELS } from './video';

export const BUILTIN_MODELS: readonly ModelInfo[] = [
  ...CHAT_MODELS,
  ...IMAGE_MODELS,
  ...VIDEO_MODELS,
  ...EMBEDDING_MODELS,
  ...SPEECH_MODELS,
];
