import { storageFailure } from './storage-failure';

describe('storageFailure', () => {
  it.each([
    ['53100', 'disk_full'],
    ['53200', 'out_of_memory'],
    ['53300', 'too_many_connections'],
    ['57P01', 'admin_shutdown'],
    ['57014', 'query_canceled (statement_timeout)'],
    ['08006', 'connection_failure'],
    ['58030', 'io_error'],
    ['ENOSPC', 'a full disk under a file'],
    ['EROFS', 'a read-only file system'],
  ])('%s (%s) is a 503 to retry', (code) => {
    expect(storageFailure(Object.assign(new Error('x'), { code }))).toMatchObject({
      status: 503,
      code: 'service_unavailable',
      retryable: true,
    });
  });

  it("reads TypeORM's driverError too", () => {
    expect(storageFailure({ message: 'x', driverError: { code: '53100' } })).toMatchObject({ status: 503 });
  });

  it.each([
    ['23505', 'unique_violation: a fault of the statement'],
    ['42P01', 'undefined_table: a bug'],
    ['22P02', 'invalid_text_representation'],
    ['ECONNRESET', 'a peer, not storage'],
    ['08007', 'transaction_resolution_unknown: the write may have committed'],
    ['53400', 'configuration_limit_exceeded'],
    ['58P01', 'undefined_file: damage'],
  ])('%s (%s) is not', (code) => {
    expect(storageFailure(Object.assign(new Error('x'), { code }))).toBeUndefined();
  });

  it('is undefined for anything without a string code', () => {
    for (const err of [undefined, null, 'text', new Error('plain'), { code: 53100 }]) expect(storageFailure(err)).toBeUndefined();
  });
});
