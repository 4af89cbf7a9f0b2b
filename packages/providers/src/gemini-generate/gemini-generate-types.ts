/**
 * The request side of Gemini's generateContent wire format (reference/gemini.md; googleapis/js-genai
 * `src/types.ts`), as far as chat needs it. Field names are the REST (camelCase) ones. Responses are
 * described by zod schemas in gemini-generate-schemas.ts, since those come from outside and are checked.
 */

export interface GeminiFunctionCall {
  /** Set by some models; echoed back in the matching functionResponse when present. */
  id?: string;
  name: string;
  args?: Record<string, unknown>;
}

export interface GeminiFunctionResponse {
  id?: string;
  name: string;
  /** A JSON object; by convention `{output}` or `{error}` when the result is not an object itself. */
  response: Record<string, unknown>;
}

export interface GeminiPart {
  text?: string;
  /** True on a thought-summary part (only sent when thinkingConfig.includeThoughts is set). */
  thought?: boolean;
  thoughtSignature?: string;
  inlineData?: { mimeType: string; data: string };
  fileData?: { mimeType?: string; fileUri: string };
  functionCall?: GeminiFunctionCall;
  functionResponse?: GeminiFunctionResponse;
}

export type GeminiRole = 'user' | 'model';

export interface GeminiContent {
  role?: GeminiRole;
  parts: GeminiPart[];
}

export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  /** Plain JSON Schema (the OpenAPI-subset `parameters` field would need a lossy conversion). */
  parametersJsonSchema?: Record<string, unknown>;
}

export type GeminiFunctionCallingMode = 'AUTO' | 'ANY' | 'NONE';

export interface GeminiThinkingConfig {
  includeThoughts?: boolean;
  /** Tokens; 0 turns thinking off where the model allows it, -1 lets the model decide. */
  thinkingBudget?: number;
}

export interface GeminiGenerationConfig {
  temperature?: number;
  topP?: number;
  maxOutputTokens?: number;
  candidateCount?: number;
  stopSequences?: string[];
  presencePenalty?: number;
  frequencyPenalty?: number;
  seed?: number;
  responseMimeType?: string;
  /** Plain JSON Schema for structured output (Gemini 2.5+), the lossless twin of `responseSchema`. */
  responseJsonSchema?: Record<string, unknown>;
  thinkingConfig?: GeminiThinkingConfig;
}

export interface GeminiGenerateRequest {
  contents: GeminiContent[];
  systemInstruction?: { parts: Array<{ text: string }> };
  tools?: Array<{ functionDeclarations: GeminiFunctionDeclaration[] }>;
  toolConfig?: { functionCallingConfig: { mode: GeminiFunctionCallingMode; allowedFunctionNames?: string[] } };
  generationConfig?: GeminiGenerationConfig;
}
