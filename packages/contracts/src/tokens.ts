/**
 * A deterministic token estimator, shared by the upstream simulator (to report usage) and the gateway
 * (to size the worst-case billing hold and to count a stream that was cut). It is not any vendor's
 * tokenizer; what matters is that every part of Unigate counts the same text the same way.
 *
 * One token is: one CJK character, or a run of up to 8 letters/digits, or a run of up to 8 other
 * non-space characters (punctuation, symbols). Whitespace is free. Capping runs at 8 characters keeps
 * a long base64 blob or an unspaced identifier from counting as a single token.
 */
import type { ChatMessage } from './chat';
import { compactionInput, touchesCompaction } from './responses/compaction';
import { inputItems, type ResponsesRequest } from './responses/request';
import { mimeFromPath } from './media-types';
import { countThroughMemo } from './token-memo';

const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}';
const WORD_CHAR = `(?:(?![${CJK}])[\\p{L}\\p{M}\\p{N}_])`;
const OTHER_CHAR = `[^\\s\\p{L}\\p{M}\\p{N}_]`;
// One compiled global regex, reset before each use (JS runs these loops to completion).
const TOKEN_RE = new RegExp(`[${CJK}]|${WORD_CHAR}{1,8}|${OTHER_CHAR}{1,8}`, 'gu');

/** Fixed cost of every message (role, separators), as chat formats add one. */
export const MESSAGE_OVERHEAD_TOKENS = 3;
/** Fixed cost of priming the assistant's reply, counted once per prompt. */
export const REPLY_PRIMING_TOKENS = 3;
/** Fixed cost of one image block, whatever its size (a high-detail 1024×1024 image in OpenAI's terms). */
export const IMAGE_BLOCK_TOKENS = 765;

/**
 * What the prompt counters saw that they could not measure, each part counted at IMAGE_BLOCK_TOKENS:
 * - `found`: a part whose tokens grow with its length (a PDF or other file, a video, audio), though an
 *   hour of video is about a million tokens: bounded only by the model's window, which is what a hold
 *   must reserve for it;
 * - `images`: how many images, each bounded by what the vendor scales it down to (the model's
 *   `max_image_tokens`, which may be above IMAGE_BLOCK_TOKENS) — chat-plan.ts, heldMediaInput.
 */
export interface UnmeasuredMedia {
  found: boolean;
  images: number;
}

/** Nothing seen yet. */
export function noMedia(): UnmeasuredMedia {
  return { found: false, images: 0 };
}

/** Text files an image block may point at: not in MIME_BY_EXTENSION, yet read whole by an upstream that reads files. */
const TEXT_FILE = /\.(txt|csv|html?)$/i;

/**
 * Whether an image block's URL holds something other than an image, whose tokens grow with its
 * length (Gemini reads any file it is given): a `data:` URL of another type, or a file whose extension
 * names one.
 */
export function imageUrlIsLengthy(url: string): boolean {
  if (url.startsWith('data:')) return !/^data:image\//i.test(url);
  const path = url.split(/[?#]/, 1)[0];
  const mime = mimeFromPath(path);
  return (mime !== undefined && !mime.startsWith('image/')) || TEXT_FILE.test(path);
}

/**
 * The number of TOKEN_RE's matches in `text`, counted by a scan over its code points instead of the
 * regex: the edge sizes every hold with it, over the whole prompt, and a coding agent's prompt is
 * tens of kilobytes (the regex took ~0.7 ms for 60 KB; this scan a small fraction of it). Each code
 * point's class comes from the regex's own character classes, once per code point (BMP_CLASS). Inside
 * `withTokenMemo` a long text an account sent before is not scanned again (token-memo.ts).
 */
export function countTextTokens(text: string): number {
  if (!text) return 0;
  return countThroughMemo(text, scanTextTokens);
}

function scanTextTokens(text: string): number {
  const length = text.length;
  let n = 0;
  let i = 0;
  while (i < length) {
    let bits = classAt(text, i);
    i += bits & ASTRAL ? 2 : 1;
    if (bits & SPACE) continue;
    n++;
    // A CJK character is a token of its own; a word or other run goes on for at most 8 characters.
    if (bits & CJK_CHAR) continue;
    const run = bits & WORD ? WORD : OTHER;
    for (let taken = 1; taken < 8 && i < length; taken++) {
      bits = classAt(text, i);
      if (!(bits & run)) break;
      i += bits & ASTRAL ? 2 : 1;
    }
  }
  return n;
}

// A code point's class, as bits: what TOKEN_RE's alternatives and \s say of it. A CJK character that is
// not a letter or number (a radical, say) is both CJK_CHAR (a token on its own) and OTHER (it goes on
// a run of other characters that started before it), exactly as in the regex. ASTRAL marks a code
// point written as two UTF-16 units.
const SPACE = 1;
const CJK_CHAR = 2;
const WORD = 4;
const OTHER = 8;
const KNOWN = 16;
const ASTRAL = 32;
const SPACE_RE = /^\s$/u;
const CJK_RE = new RegExp(`^[${CJK}]$`, 'u');
const WORD_RE = new RegExp(`^${WORD_CHAR}$`, 'u');
const OTHER_RE = new RegExp(`^${OTHER_CHAR}$`, 'u');
/** Classes of the Basic Multilingual Plane, filled as code points are first seen. */
const BMP_CLASS = new Uint8Array(0x10000);
/** Classes of astral code points (emoji, rare CJK), few in any text; dropped whole if a text holds many. */
const ASTRAL_CLASS = new Map<number, number>();

/** The class of the code point that starts at UTF-16 index `i` (ASTRAL when it takes two units). */
function classAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 0xd800) return BMP_CLASS[c] || bmpClass(c);
  return c >= 0xdc00 || i + 1 === text.length ? charClass(c) : pairClass(text, c, i + 1);
}

function bmpClass(c: number): number {
  return (BMP_CLASS[c] = classify(c));
}

/** The class of the unit `high` (a high surrogate) with the one at `next`: a pair, or a lone surrogate. */
function pairClass(text: string, high: number, next: number): number {
  const low = text.charCodeAt(next);
  if (low < 0xdc00 || low > 0xdfff) return charClass(high);
  return charClass(((high - 0xd800) << 10) + (low - 0xdc00) + 0x10000) | ASTRAL;
}

function charClass(cp: number): number {
  if (cp < 0x10000) return BMP_CLASS[cp] || bmpClass(cp);
  let bits = ASTRAL_CLASS.get(cp);
  if (bits === undefined) {
    if (ASTRAL_CLASS.size >= 4096) ASTRAL_CLASS.clear();
    ASTRAL_CLASS.set(cp, (bits = classify(cp)));
  }
  return bits;
}

function classify(cp: number): number {
  const ch = String.fromCodePoint(cp);
  return (
    KNOWN |
    (SPACE_RE.test(ch) ? SPACE : 0) |
    (CJK_RE.test(ch) ? CJK_CHAR : 0) |
    (WORD_RE.test(ch) ? WORD : 0) |
    (OTHER_RE.test(ch) ? OTHER : 0)
  );
}

/**
 * Split `text` into pieces holding exactly one token each, every piece carrying the whitespace that
 * precedes its token (trailing whitespace goes to the last piece). Joining the pieces gives back
 * `text`, and the first k pieces joined count as exactly k tokens — so a stream can be cut on a token
 * boundary and still be counted exactly. (Whitespace-only text is one piece of zero tokens.)
 */
export function splitTextTokens(text: string): string[] {
  const re = TOKEN_RE;
  re.lastIndex = 0;
  const pieces: string[] = [];
  let start = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const end = m.index + m[0].length;
    pieces.push(text.slice(start, end));
    start = end;
  }
  if (start < text.length) {
    if (pieces.length === 0) pieces.push(text.slice(start));
    else pieces[pieces.length - 1] += text.slice(start);
  }
  return pieces;
}

/**
 * Estimated prompt size of a chat request: the text of every string or text-block content, the name
 * and arguments of every tool call, a fixed cost per image block, per message and once for the reply.
 * A video, audio or non-image file block costs an image's too, and is reported in `media`.
 */
export function countPromptTokens(messages: ReadonlyArray<ChatMessage>, media?: UnmeasuredMedia): number {
  let total = REPLY_PRIMING_TOKENS;
  for (const m of messages) {
    total += MESSAGE_OVERHEAD_TOKENS;
    if (m.name) total += countTextTokens(m.name);
    const content = m.content;
    if (typeof content === 'string') {
      total += countTextTokens(content);
    } else if (Array.isArray(content)) {
      for (const block of content) {
        if (block.type === 'text') {
          total += countTextTokens(block.text);
          continue;
        }
        total += IMAGE_BLOCK_TOKENS;
        if (!media) continue;
        if (block.type !== 'image_url' || imageUrlIsLengthy(block.image_url.url)) media.found = true;
        else media.images++;
      }
    }
    for (const call of m.tool_calls ?? []) {
      total += countTextTokens(call.function.name) + countTextTokens(call.function.arguments);
    }
  }
  return total;
}

/** The parts of a messages-format request that make up its prompt. */
export interface AnthropicPrompt {
  system?: string | ReadonlyArray<{ text: string }>;
  messages: ReadonlyArray<{ content: string | ReadonlyArray<{ type: string } & Record<string, unknown>> }>;
  tools?: ReadonlyArray<unknown>;
}

/**
 * Estimated prompt size of a messages-format request, counted like countPromptTokens counts the
 * same conversation in chat form: text, tool calls and results, a fixed cost per image or document,
 * per message and once for the reply, plus the declared tools.
 */
export function countAnthropicPromptTokens(req: AnthropicPrompt, media?: UnmeasuredMedia): number {
  let total = REPLY_PRIMING_TOKENS;
  if (req.system !== undefined) {
    total += MESSAGE_OVERHEAD_TOKENS;
    total += typeof req.system === 'string' ? countTextTokens(req.system) : req.system.reduce((n, b) => n + countTextTokens(b.text), 0);
  }
  for (const m of req.messages) {
    total += MESSAGE_OVERHEAD_TOKENS;
    if (typeof m.content === 'string') total += countTextTokens(m.content);
    else for (const block of m.content) total += anthropicBlockTokens(block, media);
  }
  if (req.tools?.length) total += countTextTokens(JSON.stringify(req.tools));
  return total;
}

function anthropicBlockTokens(block: { type: string } & Record<string, unknown>, media?: UnmeasuredMedia): number {
  switch (block.type) {
    case 'text':
      return countTextTokens(String(block.text ?? ''));
    case 'thinking':
      return countTextTokens(String(block.thinking ?? ''));
    case 'image':
      if (media) media.images++;
      return IMAGE_BLOCK_TOKENS;
    case 'document':
      return documentTokens(block, media);
    case 'search_result':
      return (
        countTextTokens(String(block.title ?? '')) + countTextTokens(String(block.source ?? '')) + nestedBlockTokens(block.content, media)
      );
    case 'tool_use':
      return countTextTokens(String(block.name ?? '')) + countTextTokens(JSON.stringify(block.input ?? {}));
    case 'tool_result':
      // Its blocks, as a document's or a search result's, plus a message's overhead when it has blocks.
      return nestedBlockTokens(block.content, media) + (Array.isArray(block.content) ? MESSAGE_OVERHEAD_TOKENS : 0);
    default:
      return 0;
  }
}

/**
 * A document by what it holds: a plain-text one by its text, one of content blocks by those blocks
 * (a fixed cost would hold a 150,000-word text as a few hundred tokens, far below its charge). A PDF
 * or a URL has no text to count here: the fixed cost of an image, reported in `media`.
 */
function documentTokens(block: Record<string, unknown>, media?: UnmeasuredMedia): number {
  const source = block.source as { type?: unknown; data?: unknown; content?: unknown } | null | undefined;
  const about = countTextTokens(String(block.title ?? '')) + countTextTokens(String(block.context ?? ''));
  if (source?.type === 'text') return about + countTextTokens(String(source.data ?? ''));
  if (source?.type === 'content') return about + nestedBlockTokens(source.content, media);
  if (media) media.found = true;
  return about + IMAGE_BLOCK_TOKENS;
}

/** Blocks nested in a block (a document's or a search result's content): a string, or blocks. */
function nestedBlockTokens(content: unknown, media?: UnmeasuredMedia): number {
  if (typeof content === 'string') return countTextTokens(content);
  if (!Array.isArray(content)) return 0;
  return content.reduce((n: number, b: { type: string } & Record<string, unknown>) => n + anthropicBlockTokens(b, media), 0);
}

/**
 * Estimated prompt size of a Responses request, counted like the same conversation in chat form:
 * the instructions, every message's text, tool calls and results, reasoning summaries, a fixed cost
 * per image or file, per item and once for the reply, plus the declared tools.
 */
export function countResponsesPromptTokens(
  req: Pick<ResponsesRequest, 'input' | 'instructions' | 'tools'>,
  media?: UnmeasuredMedia,
): number {
  let total = REPLY_PRIMING_TOKENS;
  if (req.instructions) total += MESSAGE_OVERHEAD_TOKENS + countTextTokens(req.instructions);
  // Counted as the upstream reads it: a compaction trigger as the summary prompt, the gateway's own
  // compaction items as the summaries they carry (responses/compaction.ts).
  const items = inputItems(req);
  for (const item of touchesCompaction(req) ? compactionInput(items) : items) {
    total += MESSAGE_OVERHEAD_TOKENS;
    switch (item.type) {
      case 'message':
        total +=
          typeof item.content === 'string' ? countTextTokens(item.content) : item.content.reduce((n, p) => n + partTokens(p, media), 0);
        break;
      case 'function_call':
        total += countTextTokens(item.name) + countTextTokens(item.arguments);
        break;
      case 'custom_tool_call':
        total += countTextTokens(item.name) + countTextTokens(item.input);
        break;
      case 'function_call_output':
      case 'custom_tool_call_output':
        total += typeof item.output === 'string' ? countTextTokens(item.output) : item.output.reduce((n, p) => n + partTokens(p, media), 0);
        break;
      case 'reasoning':
        total += item.summary.reduce((n, s) => n + countTextTokens(s.text), 0);
        break;
      default:
        break;
    }
  }
  if (req.tools?.length) total += countTextTokens(JSON.stringify(req.tools));
  return total;
}

function partTokens(part: { type: string } & Record<string, unknown>, media?: UnmeasuredMedia): number {
  switch (part.type) {
    case 'input_text':
    case 'output_text':
      return countTextTokens(String(part.text ?? ''));
    case 'refusal':
      return countTextTokens(String(part.refusal ?? ''));
    case 'input_image':
      if (media && typeof part.image_url === 'string' && imageUrlIsLengthy(part.image_url)) media.found = true;
      else if (media) media.images++;
      return IMAGE_BLOCK_TOKENS;
    default: // input_file
      if (media) media.found = true;
      return IMAGE_BLOCK_TOKENS;
  }
}
