/**
 * A storage failure the caller can retry: the database or the disk under it could not do the work
 * now (a full disk, no memory, too many connections, the server restarting, a statement cut by its
 * timeout), not a fault in the request or in the code. Answered 503 `service_unavailable` with
 * Retry-After instead of the 500 "this is a bug" an unknown failure gets; it is still logged as an
 * error, for the operator to fix the storage.
 */
import { GatewayError } from '@unigate/contracts';

/**
 * SQLSTATE classes (Postgres appendix A) of failures of the server rather than of the statement:
 * 08 connection exception, 53 insufficient resources (53100 disk_full), 57 operator intervention
 * (admin or crash shutdown, cannot connect now, query_canceled by statement_timeout), 58 system error
 * (I/O). pg's errors carry the code; TypeORM's QueryFailedError copies it from the driver's.
 */
const RETRYABLE_SQLSTATE = /^(08|53|57|58)[0-9A-Z]{3}$/;
/** Node's errors of a disk that is full or gone (the ledger journal, result files). */
const RETRYABLE_ERRNO = new Set(['ENOSPC', 'EDQUOT', 'EIO', 'EROFS']);

export function storageFailure(err: unknown): GatewayError | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const code = (err as { code?: unknown }).code ?? (err as { driverError?: { code?: unknown } }).driverError?.code;
  if (typeof code !== 'string' || !(RETRYABLE_SQLSTATE.test(code) || RETRYABLE_ERRNO.has(code))) return undefined;
  return new GatewayError({
    status: 503,
    code: 'service_unavailable',
    type: 'server_error',
    message: 'Storage is unavailable right now; retry shortly.',
    retryable: true,
    retryAfter: 1,
  });
}
