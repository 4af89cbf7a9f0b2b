/**
 * Files as tool arguments, for multipart endpoints (image edits): JSON cannot carry bytes, so a tool
 * takes them as base64 (or a data: URI) in a `files` argument and the call sends them as the
 * multipart parts the HTTP endpoint reads. Files are not fetched from URLs: the edge would become a
 * fetcher of arbitrary addresses on the caller's behalf.
 */
import type { JsonSchema } from '../reference/endpoint-schemas';

export const FILES_ARGUMENT = 'files';

export const FILES_SCHEMA: JsonSchema = {
  type: 'array',
  description: 'The files of the multipart request (e.g. `image`, `mask`), each as base64 or a data: URI.',
  items: {
    type: 'object',
    required: ['field', 'data'],
    properties: {
      field: { type: 'string', description: 'The form field, e.g. "image" or "mask"' },
      data: { type: 'string', description: 'Base64 of the file, or a data: URI (data:image/png;base64,...)' },
      filename: { type: 'string' },
      content_type: { type: 'string', description: 'Default: from the data: URI, else application/octet-stream' },
    },
  },
};

interface FileArgument {
  field: string;
  data: string;
  filename?: string;
  content_type?: string;
}

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
  const files = Array.isArray(args[FILES_ARGUMENT]) ? (args[FILES_ARGUMENT] as FileArgument[]) : [];
  files.forEach((file, i) => {
    const { bytes, type } = decode(file);
    form.append(file.field, new Blob([bytes], { type }), file.filename ?? `${file.field}-${i + 1}`);
  });
  return form;
}

function decode(file: FileArgument): { bytes: Buffer; type: string } {
  const uri = /^data:([^;,]*)(;base64)?,(.*)$/s.exec(file.data);
  if (!uri) return { bytes: Buffer.from(file.data, 'base64'), type: file.content_type ?? 'application/octet-stream' };
  const bytes = uri[2] ? Buffer.from(uri[3], 'base64') : Buffer.from(decodeURIComponent(uri[3]));
  return { bytes, type: file.content_type ?? (uri[1] || 'application/octet-stream') };
}
