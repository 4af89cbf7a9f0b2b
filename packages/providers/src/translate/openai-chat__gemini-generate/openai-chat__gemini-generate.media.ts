/**
 * Chat content blocks → Gemini parts. Text stays text; a `data:` URL travels inline (`inlineData`);
 * an http(s) or gs:// URL becomes a `fileData{mimeType, fileUri}` reference the upstream fetches
 * itself, with the MIME type guessed from the file extension, else from the block type (image, video,
 * audio). OpenAI's base64 `input_audio` is inline data with the MIME type of its `format`.
 */
import { errors, mimeFromPath, type ChatContentBlock, type ChatMessage } from '@unigate/contracts';
import type { GeminiPart } from '../../gemini-generate/gemini-generate-types';

type MediaKind = 'image' | 'video' | 'audio';

/** When the URL says nothing (no extension, e.g. a YouTube link): the block type decides. */
const FALLBACK_MIME: Record<MediaKind, string> = { image: 'image/jpeg', video: 'video/mp4', audio: 'audio/mp3' };

/** `input_audio.format` → MIME type. */
const AUDIO_FORMAT_MIME: Record<string, string> = {
  wav: 'audio/wav',
  mp3: 'audio/mp3',
  aiff: 'audio/aiff',
  aac: 'audio/aac',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
};

/**
 * The parts of a message's content; `where` names the content in errors (`messages[2].content`).
 * Empty text is no part: Gemini refuses a text part without text ("required oneof field 'data'").
 */
export function contentToParts(content: ChatMessage['content'], where: string): GeminiPart[] {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return content === '' ? [] : [{ text: content }];
  return content.flatMap((block, i) => (block.type === 'text' && block.text === '' ? [] : [blockToPart(block, `${where}[${i}]`)]));
}

/** The text of a content, for places that only take text (system instructions, tool results). */
export function contentText(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((b) => (b.type === 'text' ? b.text : '')).join('');
}

function blockToPart(block: ChatContentBlock, where: string): GeminiPart {
  switch (block.type) {
    case 'text':
      return { text: block.text };
    case 'image_url':
      return urlPart(block.image_url.url, 'image', where);
    case 'video_url':
      return urlPart(block.video_url.url, 'video', where);
    case 'audio_url':
      return urlPart(block.audio_url.url, 'audio', where);
    case 'input_audio':
      return { inlineData: { mimeType: AUDIO_FORMAT_MIME[block.input_audio.format] ?? FALLBACK_MIME.audio, data: block.input_audio.data } };
  }
}

function urlPart(url: string, kind: MediaKind, where: string): GeminiPart {
  if (url.startsWith('data:')) return { inlineData: parseDataUrl(url, kind, where) };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw errors.invalidRequest(`Invalid '${where}': the ${kind} URL is neither an http(s) URL nor a data: URL.`, where);
  }
  if (!['http:', 'https:', 'gs:'].includes(parsed.protocol)) {
    throw errors.invalidRequest(`Invalid '${where}': ${parsed.protocol} URLs are not supported; use http(s) or a data: URL.`, where);
  }
  return { fileData: { mimeType: mimeFromPath(parsed.pathname) ?? FALLBACK_MIME[kind], fileUri: url } };
}

/** `data:<mime>[;base64],<payload>` → base64 inline data (a percent-encoded payload is re-encoded). */
function parseDataUrl(url: string, kind: MediaKind, where: string): { mimeType: string; data: string } {
  const comma = url.indexOf(',');
  if (comma < 0) throw errors.invalidRequest(`Invalid '${where}': malformed data: URL (no comma).`, where);
  const meta = url.slice(5, comma).split(';');
  const mimeType = meta[0] || FALLBACK_MIME[kind];
  const payload = url.slice(comma + 1);
  if (meta.includes('base64')) return { mimeType, data: payload };
  try {
    return { mimeType, data: Buffer.from(decodeURIComponent(payload), 'utf8').toString('base64') };
  } catch {
    throw errors.invalidRequest(`Invalid '${where}': malformed percent-encoding in a data: URL.`, where);
  }
}
