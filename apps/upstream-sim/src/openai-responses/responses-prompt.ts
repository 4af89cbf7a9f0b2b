/**
 * A Responses request seen as the chat prompt the shared generator answers (openai-chat-answer.ts),
 * so a conversation gets the same kind of answer here as on every other protocol: instructions and
 * system/developer messages → system messages, function and custom tool calls → assistant tool_calls,
 * their outputs → tool messages; function tools and the tools of namespaces are offered by name, a
 * custom tool as a function taking its raw `input`. Hosted tools are not offered (the simulator runs
 * none); reasoning items are not part of the prompt.
 */
import {
  inputItems,
  type ChatCompletionRequest,
  type ChatContentBlock,
  type ChatMessage,
  type ResponsesContentPart,
  type ResponsesCustomTool,
  type ResponsesFunctionTool,
  type ResponsesNamespaceTool,
  type ResponsesRequest,
} from '@unigate/contracts';

/** How the simulated model calls a tool offered under a name of the generator's. */
export interface OfferedTool {
  name: string;
  kind: 'function' | 'custom';
  namespace?: string;
}

export interface ResponsesPrompt {
  chat: ChatCompletionRequest;
  /** Generator tool name → the tool the client declared. */
  tools: Map<string, OfferedTool>;
  thinks: boolean;
  /** Reasoning is shown as a summary. */
  summary: boolean;
}

const REASONING_MODEL = /reason|think|^o\d|gpt-5/i;

export function responsesPrompt(req: ResponsesRequest): ResponsesPrompt {
  const messages: ChatMessage[] = [];
  if (req.instructions) messages.push({ role: 'system', content: req.instructions });
  for (const item of inputItems(req)) {
    if (item.type === 'message') {
      const role = item.role === 'developer' ? 'system' : item.role;
      messages.push({ role, content: typeof item.content === 'string' ? item.content : item.content.map(part) });
    } else if (item.type === 'function_call' || item.type === 'custom_tool_call') {
      const args = item.type === 'function_call' ? item.arguments : JSON.stringify({ input: item.input });
      const call = { id: item.call_id, type: 'function' as const, function: { name: item.name, arguments: args } };
      const last = messages[messages.length - 1];
      if (last?.role === 'assistant') last.tool_calls = [...(last.tool_calls ?? []), call];
      else messages.push({ role: 'assistant', content: null, tool_calls: [call] });
    } else if (item.type === 'function_call_output' || item.type === 'custom_tool_call_output') {
      const content =
        typeof item.output === 'string' ? item.output : item.output.map((p) => (p.type === 'input_text' ? p.text : '')).join('');
      messages.push({ role: 'tool', tool_call_id: item.call_id, content });
    }
  }

  const { tools, functions } = offeredTools(req);
  const chat: ChatCompletionRequest = { model: req.model, messages };
  if (functions.length > 0) {
    chat.tools = functions;
    const choice = req.tool_choice;
    if (choice === 'none' || choice === 'required') chat.tool_choice = choice;
    else if (choice && typeof choice === 'object' && 'name' in choice && typeof choice.name === 'string') {
      chat.tool_choice = { type: 'function', function: { name: choice.name } };
    }
  }
  if (req.max_output_tokens != null) chat.max_tokens = req.max_output_tokens;
  const format = req.text?.format;
  if (format?.type === 'json_object') chat.response_format = { type: 'json_object' };
  if (format?.type === 'json_schema')
    chat.response_format = { type: 'json_schema', json_schema: { name: format.name, schema: format.schema } };
  const effort = req.reasoning?.effort;
  return {
    chat,
    tools,
    thinks: effort ? effort !== 'none' : REASONING_MODEL.test(req.model),
    summary: Boolean(req.reasoning?.summary),
  };
}

/** The tools the generator is offered, by name, and what each stands for on the client's side. */
function offeredTools(req: ResponsesRequest): { tools: Map<string, OfferedTool>; functions: NonNullable<ChatCompletionRequest['tools']> } {
  const tools = new Map<string, OfferedTool>();
  const functions: NonNullable<ChatCompletionRequest['tools']> = [];
  const offer = (t: ResponsesFunctionTool | ResponsesCustomTool, namespace?: string) => {
    tools.set(t.name, { name: t.name, kind: t.type, ...(namespace && { namespace }) });
    const parameters = t.type === 'custom' ? CUSTOM_INPUT : t.parameters;
    functions.push({
      type: 'function',
      function: { name: t.name, description: t.description ?? undefined, parameters: parameters ?? undefined },
    });
  };
  for (const tool of req.tools ?? []) {
    if (tool.type === 'function' || tool.type === 'custom') offer(tool as ResponsesFunctionTool | ResponsesCustomTool);
    else if (tool.type === 'namespace')
      for (const inner of (tool as ResponsesNamespaceTool).tools) offer(inner, (tool as ResponsesNamespaceTool).name);
  }
  return { tools, functions };
}

const CUSTOM_INPUT = { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] };

function part(p: ResponsesContentPart): ChatContentBlock {
  switch (p.type) {
    case 'input_text':
    case 'output_text':
      return { type: 'text', text: p.text };
    case 'refusal':
      return { type: 'text', text: p.refusal };
    case 'input_image':
      return { type: 'image_url', image_url: { url: p.image_url ?? `file:${p.file_id ?? ''}` } };
    default:
      return { type: 'text', text: `[file ${p.filename ?? p.file_id ?? ''}]` };
  }
}
