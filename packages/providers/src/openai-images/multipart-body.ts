/** A multipart/form-data body built in memory (the upload is already bounded by the edge's limits). */
import { randomBytes } from 'node:crypto';

export interface FormFile {
  field: string;
  filename: string;
  contentType: string;
  data: Uint8Array;
}

export function multipartBody(
  fields: Record<string, string | undefined>,
  files: readonly FormFile[],
): { body: Buffer; contentType: string } {
  const boundary = `----unigate${randomBytes(12).toString('hex')}`;
  const parts: Buffer[] = [];
  const quote = (s: string) => s.replace(/["\r\n\\]/g, '_');
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"\r\n\r\n${value}\r\n`));
  }
  for (const f of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${quote(f.field)}"; filename="${quote(f.filename)}"\r\nContent-Type: ${quote(f.contentType)}\r\n\r\n`,
      ),
      Buffer.from(f.data.buffer, f.data.byteOffset, f.data.byteLength),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}
