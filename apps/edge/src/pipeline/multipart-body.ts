/**
 * The body of a multipart endpoint (image edits), read with @fastify/multipart within the spec's
 * limits: text fields become the object the request schema validates (a repeated field becomes an
 * array), files become attachments carried to the service as bytes. A file over the size limit, or
 * more files or fields than allowed, is a 413 before the rest of the body is read.
 */
import type { MultipartFile } from '@fastify/multipart';
import { errors, GatewayError, type Attachment, type MultipartBody } from '@unigate/contracts';
import type { FastifyRequest } from 'fastify';

export interface MultipartParts {
  fields: Record<string, string | string[]>;
  files: Attachment[];
}

export async function readMultipart(request: FastifyRequest, limits: MultipartBody): Promise<MultipartParts> {
  if (!request.isMultipart()) {
    throw errors.invalidRequest(
      'This endpoint takes multipart/form-data (files and fields); the request is not multipart.',
      null,
      'invalid_content_type',
    );
  }
  const fields: Record<string, string | string[]> = {};
  const files: Attachment[] = [];
  const parts = request.parts({
    limits: { fileSize: limits.maxFileBytes, files: limits.maxFiles, fields: limits.maxFields, parts: limits.maxFiles + limits.maxFields },
  });
  try {
    for await (const part of parts) {
      if (part.type === 'file') {
        files.push({ field: part.fieldname, filename: part.filename, content_type: part.mimetype, data: await fileWithin(part, limits) });
      } else {
        const value = String(part.value);
        const had = fields[part.fieldname];
        fields[part.fieldname] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
      }
    }
  } catch (err) {
    throw malformed(err, limits);
  }
  return { fields, files };
}

/** The plugin's count limits, in words: its own messages are "reach files limit" and the like. */
const OVER_COUNT: Record<string, (limits: MultipartBody) => string> = {
  FST_FILES_LIMIT: (l) => `Too many files: at most ${l.maxFiles} per request.`,
  FST_FIELDS_LIMIT: (l) => `Too many form fields: at most ${l.maxFields} per request.`,
  FST_PARTS_LIMIT: (l) => `Too many parts: at most ${l.maxFiles} files and ${l.maxFields} fields per request.`,
};

/**
 * What failed reading the parts: our limits (413) and the plugin's (Fastify codes) as they are; anything
 * else is the parser refusing the body (no boundary, another boundary, a form cut off before its end).
 */
function malformed(err: unknown, limits: MultipartBody): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && OVER_COUNT[code])
    return new GatewayError({ status: 413, code: 'request_too_large', message: OVER_COUNT[code](limits) });
  if (GatewayError.is(err) || (typeof code === 'string' && code.startsWith('FST_'))) return err;
  const reason = err instanceof Error ? err.message : String(err);
  return errors.invalidRequest(`The multipart/form-data body is malformed (${reason}).`, null, 'invalid_multipart');
}

/**
 * The file's bytes, or a 413 the moment it passes the limit: the file stream itself would only end
 * with its part, i.e. once the client has sent everything (never, for a client that keeps sending).
 */
function fileWithin(part: MultipartFile, limits: MultipartBody): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    part.file.once('limit', () =>
      reject(
        new GatewayError({
          status: 413,
          code: 'file_too_large',
          message: `A file is larger than ${limits.maxFileBytes} bytes.`,
          param: part.fieldname,
        }),
      ),
    );
    part.toBuffer().then(resolve, reject);
  });
}
