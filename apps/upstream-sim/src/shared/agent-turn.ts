/**
 * The simulated model as a coding agent's counterpart, the same on every protocol (every route answers
 * through the shared generator, which asks here). Deterministic, so tests can assert on it:
 *
 * - the conversation's last turn brought tool results → answer in text quoting them (no new call);
 * - the user's latest words report tool results (a handoff summary this model wrote when the client
 *   compacted the conversation) → answer in text quoting that report: the work was done before;
 * - asked for a summary (a compaction) → restate the user's request and the tool results so far, so
 *   the conversation can go on from the summary alone;
 * - tool_choice forces a tool → call it (the named one, or the best fit);
 * - the user asks to read a file (a path and a verb such as read/show/cat) → call the file-reading
 *   tool with that path, or else a shell tool with `cat <path>`;
 * - the user asks to run a command (`run \`ls -la\``) → call the shell tool with it;
 * - the user names what a tool is about (`Weather in Paris?` and `get_weather`) → call that tool;
 * - otherwise → answer in text, even with tools on offer (a "Say hi" must not start a tool loop).
 *
 * Arguments always fit the tool's JSON schema: its required properties are sampled from the schema,
 * then the path or command goes into the property made for it. What clients wrap around the user's
 * words (`<system-reminder>`, `<environment_context>` blocks) is not read as the request.
 */
import { errors, splitTextTokens, type ChatCompletionRequest, type ChatMessage } from '@unigate/contracts';
import { sampleFromSchema } from './json-sample';
import type { SeededRandom } from './seeded-random';

type Schema = Record<string, unknown>;
type Tool = NonNullable<ChatCompletionRequest['tools']>[number]['function'];

export interface ToolCallPlan {
  name: string;
  args: unknown;
}

/** A tool result is quoted up to this many tokens (enough for a short file, bounded for a long one). */
const QUOTE_TOKENS = 80;

/** Verbs that say nothing about what a tool is for (`get_weather` is about weather, not getting). */
const GENERIC_WORDS = new Set([
  'get',
  'set',
  'list',
  'create',
  'update',
  'delete',
  'read',
  'write',
  'edit',
  'run',
  'make',
  'find',
  'search',
  'fetch',
  'send',
  'show',
  'add',
  'remove',
  'tool',
  'tools',
]);

const READ_VERB = /\b(read|show|open|cat|print|display|contents?|what(?:'s| is) in)\b/i;
const PATH =
  /(?:^|[\s"'`(])((?:~|\.{1,2})?\/[\w.@-]+(?:\/[\w.@-]+)*|[\w.@-]+\/[\w.@/-]*\w|[\w@-]+\.[A-Za-z0-9]{1,8})(?=$|[\s"'`),;:!?]|\.(?:\s|$))/;
const RUN_BACKTICKED = /\b(?:run|execute|exec)\b[^`]*`([^`]+)`/i;
const RUN_PLAIN = /\b(?:run|execute)\s+(?:the\s+)?(?:shell\s+)?command\s*:?\s+["']?([^"'\n]+?)["']?\s*(?:$|\n|\.(?:\s|$))/i;
const CLIENT_WRAPPERS = /<(system-reminder|environment_context|user_instructions|context)>[\s\S]*?<\/\1>/g;

/** Whether the model answers with a tool call, and with what. */
export function planToolCall(body: ChatCompletionRequest, rng: SeededRandom): ToolCallPlan | null {
  const tools = (body.tools ?? []).map((t) => t.function);
  if (tools.length === 0 || body.tool_choice === 'none' || toolResults(body.messages).length > 0) return null;
  const choice = body.tool_choice;
  if (choice && typeof choice === 'object') {
    const named = tools.find((t) => t.name === choice.function.name);
    if (!named) {
      throw errors.invalidRequest(
        `Invalid value for 'tool_choice': function '${choice.function.name}' is not among the tools.`,
        'tool_choice',
      );
    }
    return { name: named.name, args: sampleArgs(named, rng) };
  }
  const request = requestText(body.messages);
  // Words that report tool results (the model's own summary) say the work was done: nothing to call.
  const planned = request.includes(TOOL_REPORT)
    ? null
    : (fileRead(tools, request, rng) ?? commandRun(tools, request, rng) ?? topical(tools, request, rng));
  if (planned) return planned;
  return choice === 'required' ? { name: tools[0].name, args: sampleArgs(tools[0], rng) } : null;
}

/** The tool results the last turn brought (after the last assistant message), for the model to quote. */
export function toolResults(messages: readonly ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (let i = messages.length - 1; i >= 0 && messages[i].role !== 'assistant'; i--) {
    if (messages[i].role === 'tool') out.unshift(messages[i]);
  }
  return out;
}

/** The opening of the tool results, whitespace collapsed, client wrappers left out. */
export function quoteOf(results: readonly ChatMessage[]): string {
  return opening(results.map((m) => contentText(m.content).replace(CLIENT_WRAPPERS, ' ')).join(' '));
}

/** How the model's answers (and so its summaries) report tool results: `The tool returned: "…".` */
export const TOOL_REPORT = 'The tool returned: ';
const REPORT_LINE = new RegExp(`${TOOL_REPORT}"[^\\n]*"\\.`);
const RESTATES = 'The user asked: ';
const RESTATED_REQUEST = new RegExp(`^${RESTATES}(.*)$`, 'm');
const ASKS_FOR_SUMMARY = /\bsummar(?:y|ies|i[sz]e)\b/i;

/**
 * What the model says in text: quoting the tool results the last turn brought; asked for a summary,
 * one the conversation can go on from (the request restated, the results so far); or, when the user's
 * latest words are such a summary, what it reports.
 */
export function textAnswer(messages: readonly ChatMessage[], prose: () => string): string {
  const results = toolResults(messages);
  const report = results.length > 0 ? `${TOOL_REPORT}"${quoteOf(results)}".` : undefined;
  const pieces = lastUserPieces(messages, 2);
  const request = pieces.at(-1) ?? '';
  // A summary the model wrote (it restates a request) is not a request for one.
  if (ASKS_FOR_SUMMARY.test(request) && !RESTATED_REQUEST.test(request) && pieces.length > 1) {
    const before = pieces.at(-2)!;
    const asked = RESTATED_REQUEST.exec(before)?.[1] ?? opening(before);
    return [RESTATES + asked, report ?? REPORT_LINE.exec(before)?.[0]].filter(Boolean).join('\n');
  }
  const reported = report ?? REPORT_LINE.exec(request)?.[0];
  return reported ? `${reported} ${prose()}` : prose();
}

/** What the user asked for: their latest words besides client wrappers. */
function requestText(messages: readonly ChatMessage[]): string {
  return lastUserPieces(messages, 1)[0] ?? '';
}

/**
 * The user's last `count` words, in order: each text block of each user message on its own (a client
 * may send the request and a summary as two blocks of one message, and a translation may join two
 * messages into one), client wrappers left out, blocks with nothing else skipped. Read from the end:
 * a coding agent's conversation is long.
 */
function lastUserPieces(messages: readonly ChatMessage[], count: number): string[] {
  const pieces: string[] = [];
  for (let i = messages.length - 1; i >= 0 && pieces.length < count; i--) {
    const { role, content } = messages[i];
    if (role !== 'user') continue;
    const blocks =
      typeof content === 'string' ? [content] : Array.isArray(content) ? content.map((b) => (b.type === 'text' ? b.text : '')) : [];
    for (let j = blocks.length - 1; j >= 0 && pieces.length < count; j--) {
      const text = blocks[j].replace(CLIENT_WRAPPERS, ' ').trim();
      if (text) pieces.unshift(text);
    }
  }
  return pieces;
}

/** The opening of a text, whitespace collapsed: a bounded quote. */
function opening(text: string): string {
  return splitTextTokens(text.replace(/\s+/g, ' ').trim()).slice(0, QUOTE_TOKENS).join('');
}

function fileRead(tools: Tool[], request: string, rng: SeededRandom): ToolCallPlan | null {
  const path = READ_VERB.test(request) ? PATH.exec(request)?.[1] : undefined;
  if (!path) return null;
  const reader = tools.find((t) => isFileReader(t, 'name')) ?? tools.find((t) => isFileReader(t, 'description'));
  if (reader) return { name: reader.name, args: withValue(reader, rng, stringProperty(reader, /path|file/i)!, path) };
  return shellCall(tools, `cat ${path}`, rng);
}

function commandRun(tools: Tool[], request: string, rng: SeededRandom): ToolCallPlan | null {
  const command = (RUN_BACKTICKED.exec(request) ?? RUN_PLAIN.exec(request))?.[1]?.trim();
  return command ? shellCall(tools, command, rng) : null;
}

function shellCall(tools: Tool[], command: string, rng: SeededRandom): ToolCallPlan | null {
  for (const tool of tools) {
    if (!/bash|shell|command|exec|terminal/i.test(`${tool.name} ${tool.description ?? ''}`)) continue;
    const property = commandProperty(tool);
    if (!property) continue;
    const value = property.array ? ['bash', '-lc', command] : command;
    return { name: tool.name, args: withValue(tool, rng, property.name, value) };
  }
  return null;
}

/** A tool the user's words name: a word of its name (other than a generic verb) appears in the request. */
function topical(tools: Tool[], request: string, rng: SeededRandom): ToolCallPlan | null {
  const words = new Set(request.toLowerCase().match(/[a-z]+/g) ?? []);
  const tool = tools.find((t) => nameWords(t.name).some((w) => words.has(w)));
  return tool ? { name: tool.name, args: sampleArgs(tool, rng) } : null;
}

function nameWords(name: string): string[] {
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w.length >= 3 && !GENERIC_WORDS.has(w));
}

/** A tool for reading files, by its name or else by what its description starts with, taking a path. */
function isFileReader(tool: Tool, by: 'name' | 'description'): boolean {
  const says =
    by === 'name' ? /^read|read_?file|view_?file/i.test(tool.name) : /^reads? (?:a |the )?(?:local )?file/i.test(tool.description ?? '');
  return says && stringProperty(tool, /path|file/i) !== undefined;
}

function properties(tool: Tool): Record<string, Schema> {
  return ((tool.parameters as Schema | undefined)?.properties ?? {}) as Record<string, Schema>;
}

function stringProperty(tool: Tool, name: RegExp): string | undefined {
  return Object.entries(properties(tool)).find(([key, s]) => name.test(key) && s.type === 'string')?.[0];
}

function commandProperty(tool: Tool): { name: string; array: boolean } | undefined {
  for (const [key, s] of Object.entries(properties(tool))) {
    if (!/^(command|cmd)$/i.test(key)) continue;
    if (s.type === 'string') return { name: key, array: false };
    if (s.type === 'array') return { name: key, array: true };
  }
  return undefined;
}

function sampleArgs(tool: Tool, rng: SeededRandom): unknown {
  return sampleFromSchema((tool.parameters as Schema | undefined) ?? { type: 'object' }, rng);
}

/** The tool's required arguments, sampled, with `value` in `property`. */
function withValue(tool: Tool, rng: SeededRandom, property: string, value: unknown): Record<string, unknown> {
  const sampled = sampleArgs(tool, rng);
  return { ...(sampled && typeof sampled === 'object' ? (sampled as Record<string, unknown>) : {}), [property]: value };
}

function contentText(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((b) => (b.type === 'text' ? b.text : '')).join(' ');
}
