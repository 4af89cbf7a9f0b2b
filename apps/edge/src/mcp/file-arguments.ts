/**
 * Files as tool arguments, for multipart endpoints (image edits): JSON cannot carry bytes, so a tool
 * takes them as base64 (or a data: URI) in a `files` argument and the call sends them as the
 * multipart parts the HTTP endpoint reads. Files are not fetched from URLs: the edge would become a
 * fetcher of arbitrary addresses on the caller's behalf.
 */
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { jsonSchemaOf, type JsonSchema } from '../reference/endpoint-schemas';
import { parseParams } from './invalid-params';

export const FILES_ARGUMENT = 'files';

const filesArgument = z
  .array(
    z.object({
      field: z.string().min(1).describe('The form field, e.g. "image" or "mask"'),
      data: z.string().describe('Base64 of the file, or a data: URI (data:image/png;base64,...)'),
      filename: z.string().optional(),
      content_type: z.string().optional().describe('Default: from the data: URI, else application/octet-stream'),
    }),
  )
  .describe('The files of the multipart request (e.g. `image`, `mask`), each as base64 or a data: URI.');

/** A tool call's arguments as far as their files go: a refusal names the file (`files[1].data`). */
const withFiles = z.looseObject({ [FILES_ARGUMENT]: filesArgument.optional() });

type FileArgument = z.infer<typeof filesArgument>[number];

export const FILES_SCHEMA: JsonSchema = jsonSchemaOf(filesArgument);

/**
 * The multipart form of a tool call: every argument but `files` as text fields (a list repeats its
 * field, other values go as JSON), every file as a file part.
 */
export function toFormData(args: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(args)) {
    if (name === FILES_ARGUMENT || value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) form.append(name, typeof v === 'string' ? v : JSON.stringify(v));
  }
  const files = parseParams(withFiles, args)[FILES_ARGUMENT] ?? [];
  files.forEach((file, i) => {
    const { bytes, type } = decode(file, i);
    form.append(file.field, new Blob([bytes], { type }), file.filename ?? `${file.field}-${i + 1}`);
  });
  return form;
}

function decode(file: FileArgument, i: number): { bytes: Buffer; type: string } {
  const uri = /^data:([^;,]*)(;base64)?,(.*)$/s.exec(file.data);
  if (!uri) return { bytes: base64Decoded(file.data, i), type: file.content_type ?? 'application/octet-stream' };
  const bytes = uri[2] ? base64Decoded(uri[3]!, i) : Buffer.from(percentDecoded(uri[3]!, i));
  return { bytes, type: file.content_type ?? (uri[1] || 'application/octet-stream') };
}

/** Base64 (or base64url; line breaks allowed): Buffer.from skips what is not, which would send other bytes than meant. */
const BASE64 = /^[A-Za-z0-9+/_\-\s]*={0,2}\s*$/;

function base64Decoded(text: string, i: number): Buffer {
  if (!BASE64.test(text)) {
    throw new McpError(ErrorCode.InvalidParams, `Invalid '${FILES_ARGUMENT}[${i}].data': expected base64 or a data: URI.`);
  }
  return Buffer.from(text, 'base64');
}

function percentDecoded(text: string, i: number): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Invalid '${FILES_ARGUMENT}[${i}].data': a data: URI without ;base64 must be percent-encoded text.`,
    );
  }
}
