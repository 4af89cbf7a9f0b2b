/**
 * A storage failure the caller can retry: the database or the disk under it could not do the work
 * now (a full disk, no memory, too many connections, the server restarting, a statement cut by its
 * timeout), not a fault in the request or in the code. Answered 503 `service_unavailable` with
 * Retry-After instead of the 500 "this is a bug" an unknown failure gets; it is still logged as an
 * error, for the operator to fix the storage.
 */
import { errors, type GatewayError } from '@unigate/contracts';

/**
 * SQLSTATEs (Postgres appendix A) of failures of the server rather than of the statement, that pass:
 * connection exceptions (class 08), but not 08007 transaction_resolution_unknown (a write that may
 * have committed must not be retried blindly); 53100 disk_full, 53200 out_of_memory, 53300
 * too_many_connections (not 53400, a configuration limit); operator intervention (class 57: admin or
 * crash shutdown, cannot connect now, query_canceled by statement_timeout); 58030 io_error (not
 * 58P01/58P02, a missing or duplicate file: damage). pg's errors carry the code; TypeORM's
 * QueryFailedError copies it from the driver's.
 */
const RETRYABLE_SQLSTATE = /^(08(?!007)[0-9A-Z]{3}|53[123]00|57[0-9A-Z]{3}|58030)$/;
/** Node's errors of a disk that is full or gone (the ledger journal, result files). */
const RETRYABLE_ERRNO = new Set(['ENOSPC', 'EDQUOT', 'EIO', 'EROFS']);

export function storageFailure(err: unknown): GatewayError | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const code = (err as { code?: unknown }).code ?? (err as { driverError?: { code?: unknown } }).driverError?.code;
  if (typeof code !== 'string' || !(RETRYABLE_SQLSTATE.test(code) || RETRYABLE_ERRNO.has(code))) return undefined;
  return errors.unavailable('Storage is unavailable right now; retry shortly.', 1);
}
