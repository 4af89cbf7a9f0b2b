/**
 * A Gemini GenerateContentRequest as the simulator reads it, checked by hand (the simulator carries no
 * schema library) with Gemini-style 400 messages, then turned into the chat request the shared answer
 * generator takes — so the same conversation gets the same kind of answer on every protocol:
 * systemInstruction → a system message, `model` turns → assistant messages (function calls become
 * tool_calls), `user` turns → user messages (media parts count as image blocks do) and tool messages
 * for their functionResponse parts; tools, toolConfig and generationConfig → their chat fields.
 */
import { errors, type ChatCompletionRequest, type ChatContentBlock, type ChatMessage } from '@unigate/contracts';

type Json = Record<string, unknown>;

export interface GeminiSimRequest {
  chat: ChatCompletionRequest;
  /** Thinking on (thinkingBudget ≠ 0 or includeThoughts). */
  thinks: boolean;
  /** Thought summaries returned as `thought: true` parts. */
  showThoughts: boolean;
}

export function parseGeminiRequest(model: string, body: unknown): GeminiSimRequest {
  const req = object(body, 'GenerateContentRequest');
  const contents = req.contents;
  if (!Array.isArray(contents) || contents.length === 0) throw invalid('* GenerateContentRequest.contents: contents is not specified');
  const messages: ChatMessage[] = [];
  const system = req.systemInstruction === undefined ? [] : parts(req.systemInstruction, 'system_instruction');
  const systemText = system.map((p) => (typeof p.text === 'string' ? p.text : '')).join('\n');
  if (systemText) messages.push({ role: 'system', content: systemText });

  // Function name → ids of its calls, and how many of them were answered. Appended in place and read
  // from a moving index, linear: copying the list on every call, or shift() on a long one (V8 then
  // moves all the rest), would make n calls of one function cost n²/2.
  const pendingCalls = new Map<string, { ids: string[]; answered: number }>();
  let callCount = 0;
  contents.forEach((c, i) => {
    const content = object(c, `contents[${i}]`);
    const role = content.role ?? 'user';
    if (role !== 'user' && role !== 'model')
      throw invalid(`* GenerateContentRequest.contents[${i}].role: Please use a valid role: user, model.`);
    const ps = parts(content, `contents[${i}]`);
    if (role === 'model') {
      const text = ps
        .filter((p) => typeof p.text === 'string' && !p.thought)
        .map((p) => p.text as string)
        .join('');
      const calls = ps
        .filter((p) => p.functionCall)
        .map((p) => {
          const call = object(p.functionCall, `contents[${i}].parts.function_call`);
          const name = String(call.name ?? '');
          const id = `call_${++callCount}`;
          const pending = pendingCalls.get(name);
          if (pending) pending.ids.push(id);
          else pendingCalls.set(name, { ids: [id], answered: 0 });
          return { id, type: 'function' as const, function: { name, arguments: JSON.stringify(call.args ?? {}) } };
        });
      messages.push({ role: 'assistant', content: text || (calls.length ? null : ''), ...(calls.length > 0 && { tool_calls: calls }) });
      return;
    }
    const blocks: ChatContentBlock[] = [];
    for (const p of ps) {
      if (p.functionResponse) {
        const res = object(p.functionResponse, `contents[${i}].parts.function_response`);
        const name = String(res.name ?? '');
        const pending = pendingCalls.get(name);
        const id = pending && pending.answered < pending.ids.length ? pending.ids[pending.answered++] : `call_unmatched_${name}`;
        messages.push({ role: 'tool', tool_call_id: id, content: resultText(res.response) });
      } else if (typeof p.text === 'string') blocks.push({ type: 'text', text: p.text });
      else if (p.inlineData || p.fileData) blocks.push({ type: 'image_url', image_url: { url: mediaUrl(p) } });
    }
    if (blocks.length > 0) messages.push({ role: 'user', content: blocks });
  });

  const config = req.generationConfig === undefined ? {} : object(req.generationConfig, 'generation_config');
  const thinking = config.thinkingConfig === undefined ? {} : object(config.thinkingConfig, 'generation_config.thinking_config');
  const budget = optionalNumber(thinking.thinkingBudget, 'generation_config.thinking_config.thinking_budget');
  const showThoughts = thinking.includeThoughts === true;
  const chat: ChatCompletionRequest = { model, messages, ...toolFields(req), ...generationFields(config) };
  return { chat, thinks: budget === undefined ? showThoughts : budget !== 0, showThoughts };
}

function generationFields(config: Json): Partial<ChatCompletionRequest> {
  const out: Partial<ChatCompletionRequest> = {};
  const max = optionalNumber(config.maxOutputTokens, 'generation_config.max_output_tokens');
  if (max !== undefined) {
    if (!Number.isInteger(max) || max <= 0)
      throw invalid('* GenerateContentRequest.generation_config.max_output_tokens: max_output_tokens must be positive.');
    out.max_tokens = max;
  }
  const n = optionalNumber(config.candidateCount, 'generation_config.candidate_count');
  if (n !== undefined) {
    if (!Number.isInteger(n) || n < 1 || n > 8)
      throw invalid('* GenerateContentRequest.generation_config.candidate_count: must be between 1 and 8.');
    out.n = n;
  }
  if (config.stopSequences !== undefined) {
    if (
      !Array.isArray(config.stopSequences) ||
      config.stopSequences.some((s) => typeof s !== 'string') ||
      config.stopSequences.length > 5
    ) {
      throw invalid('* GenerateContentRequest.generation_config.stop_sequences: at most 5 strings.');
    }
    out.stop = config.stopSequences as string[];
  }
  const schema = config.responseJsonSchema ?? config.responseSchema;
  if (schema !== undefined) {
    out.response_format = {
      type: 'json_schema',
      json_schema: { name: 'response', schema: lowerCaseTypes(object(schema, 'generation_config.response_schema')) },
    };
  } else if (config.responseMimeType === 'application/json') {
    out.response_format = { type: 'json_object' };
  }
  return out;
}

function toolFields(req: Json): Partial<ChatCompletionRequest> {
  if (!Array.isArray(req.tools)) return {};
  const tools = req.tools.flatMap((t, i) => {
    const decls = object(t, `tools[${i}]`).functionDeclarations;
    return (Array.isArray(decls) ? decls : []).map((d, j) => {
      const decl = object(d, `tools[${i}].function_declarations[${j}]`);
      if (typeof decl.name !== 'string' || !decl.name)
        throw invalid(`* GenerateContentRequest.tools[${i}].function_declarations[${j}].name: Name cannot be empty.`);
      const parameters = decl.parametersJsonSchema ?? (decl.parameters ? lowerCaseTypes(object(decl.parameters, 'parameters')) : undefined);
      return {
        type: 'function' as const,
        function: { name: decl.name, ...(parameters !== undefined && { parameters: parameters as Json }) },
      };
    });
  });
  if (tools.length === 0) return {};
  const calling = (req.toolConfig as { functionCallingConfig?: { mode?: unknown; allowedFunctionNames?: unknown } } | undefined)
    ?.functionCallingConfig;
  const allowed = Array.isArray(calling?.allowedFunctionNames) ? (calling.allowedFunctionNames as string[]) : [];
  let tool_choice: ChatCompletionRequest['tool_choice'];
  if (calling?.mode === 'NONE') tool_choice = 'none';
  else if (calling?.mode === 'ANY') tool_choice = allowed.length > 0 ? { type: 'function', function: { name: allowed[0] } } : 'required';
  return { tools, ...(tool_choice && { tool_choice }) };
}

/** Gemini's OpenAPI-style schemas spell types in capitals (`OBJECT`); the sampler reads JSON Schema. */
function lowerCaseTypes(schema: Json): Json {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!v || typeof v !== 'object') return v;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k === 'type' && typeof x === 'string' ? x.toLowerCase() : walk(x)]));
  };
  return walk(schema) as Json;
}

function mediaUrl(p: Json): string {
  const inline = p.inlineData as { mimeType?: string; data?: string } | undefined;
  if (inline) return `data:${inline.mimeType ?? 'application/octet-stream'};base64,${inline.data ?? ''}`;
  return String((p.fileData as { fileUri?: unknown }).fileUri ?? '');
}

function parts(content: unknown, where: string): Json[] {
  const ps = object(content, where).parts;
  if (!Array.isArray(ps) || ps.length === 0) throw invalid(`* GenerateContentRequest.${where}.parts: contents.parts must not be empty.`);
  return ps.map((p, i) => object(p, `${where}.parts[${i}]`));
}

function object(v: unknown, where: string): Json {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw invalid(`Invalid JSON payload received. ${where}: expected an object.`);
  return v as Json;
}

function optionalNumber(v: unknown, where: string): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'number') throw invalid(`Invalid JSON payload received. ${where}: expected a number.`);
  return v;
}

function invalid(message: string) {
  return errors.invalidRequest(message);
}

/**
 * A functionResponse as the model reads it: `{output: "..."}` — the key Gemini documents for a
 * plain result — is that text; any other object is its JSON.
 */
function resultText(response: unknown): string {
  const keys = response && typeof response === 'object' ? Object.keys(response) : [];
  const output = (response as { output?: unknown } | undefined)?.output;
  return keys.length === 1 && typeof output === 'string' ? output : JSON.stringify(response ?? {});
}
