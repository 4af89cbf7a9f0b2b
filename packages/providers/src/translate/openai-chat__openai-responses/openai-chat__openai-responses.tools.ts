/**
 * Responses tools ⇄ chat functions. Chat has only functions, so:
 *
 * - a function tool is the function of the same name;
 * - a custom (freeform) tool is a function taking one string, `input` — its call becomes a
 *   custom_tool_call carrying that string;
 * - the tools of a namespace are functions named `<namespace>__<tool>` (a name every chat vendor
 *   accepts) — their calls come back as calls of `<tool>` in `<namespace>`;
 * - hosted tools (web_search, file_search, code_interpreter, mcp, ...) run at OpenAI only: they are
 *   dropped, as the Responses docs allow a model without them to do.
 *
 * One ToolNames per request does both directions, so requests, answers and streams agree.
 */
import type {
  ChatCompletionRequest,
  ResponsesCustomTool,
  ResponsesFunctionTool,
  ResponsesRequest,
  ResponsesTool,
  ResponsesToolChoice,
} from '@unigate/contracts';

type ChatTool = NonNullable<ChatCompletionRequest['tools']>[number];

/** What a chat function stands for on the Responses side. */
export interface ToolTarget {
  kind: 'function' | 'custom';
  name: string;
  namespace?: string;
}

const NAMESPACE_SEPARATOR = '__';

/** The chat function name of a Responses tool, or of a call naming one. */
export function chatToolName(name: string, namespace?: string | null): string {
  return namespace ? `${namespace}${NAMESPACE_SEPARATOR}${name}` : name;
}

const CUSTOM_INPUT_SCHEMA = {
  type: 'object',
  properties: { input: { type: 'string', description: 'The raw input for the tool, exactly as the tool expects it.' } },
  required: ['input'],
  additionalProperties: false,
};

export class ToolNames {
  private readonly byChatName = new Map<string, ToolTarget>();
  readonly chatTools: ChatTool[] = [];

  constructor(tools: readonly ResponsesTool[] = []) {
    for (const tool of tools) {
      if (tool.type === 'function' || tool.type === 'custom') this.add(tool as ResponsesFunctionTool | ResponsesCustomTool);
      else if (tool.type === 'namespace' && 'tools' in tool && Array.isArray(tool.tools)) {
        for (const inner of tool.tools) this.add(inner, tool.name as string);
      }
      // hosted tools: dropped (see above)
    }
  }

  /** The chat function name of a Responses tool (or of a call naming one). */
  chatName(name: string, namespace?: string | null): string {
    return chatToolName(name, namespace);
  }

  /** What a chat function call stands for; an unknown name is a plain function call. */
  target(chatName: string): ToolTarget {
    return this.byChatName.get(chatName) ?? { kind: 'function', name: chatName };
  }

  /** Chat's tool_choice for a Responses tool_choice; undefined when there are no tools left to choose. */
  chatChoice(choice: ResponsesToolChoice | null | undefined): ChatCompletionRequest['tool_choice'] {
    if (this.chatTools.length === 0 || choice === undefined || choice === null) return undefined;
    if (typeof choice === 'string') return choice;
    if ((choice.type === 'function' || choice.type === 'custom') && 'name' in choice && typeof choice.name === 'string') {
      return { type: 'function', function: { name: this.chatName(choice.name) } };
    }
    if (choice.type === 'allowed_tools' && 'mode' in choice) return choice.mode === 'required' ? 'required' : 'auto';
    return undefined; // a hosted tool was chosen: it is not there, the model picks
  }

  private add(tool: ResponsesFunctionTool | ResponsesCustomTool, namespace?: string): void {
    const chatName = this.chatName(tool.name, namespace);
    this.byChatName.set(chatName, { kind: tool.type, name: tool.name, ...(namespace && { namespace }) });
    const description = tool.description ?? undefined;
    const parameters = tool.type === 'custom' ? CUSTOM_INPUT_SCHEMA : (tool.parameters ?? undefined);
    this.chatTools.push({
      type: 'function',
      function: { name: chatName, ...(description && { description }), ...(parameters && { parameters }) },
    });
  }
}

/** The tools of a request, mapped once. */
export function toolNamesOf(req: Pick<ResponsesRequest, 'tools'>): ToolNames {
  return new ToolNames(req.tools ?? []);
}

/** A custom tool call's input from the arguments its chat function was called with. */
export function customInput(args: string): string {
  try {
    const value: unknown = JSON.parse(args);
    if (value && typeof value === 'object' && typeof (value as { input?: unknown }).input === 'string')
      return (value as { input: string }).input;
  } catch {
    // not JSON: the model wrote the input itself
  }
  return args;
}
