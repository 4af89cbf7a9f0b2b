import { Writable } from 'node:stream';
import { createLogger } from './logger';

function capture(): { logger: ReturnType<typeof createLogger>; text: () => string } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: createLogger('test', 'info', sink), text: () => lines.join('') };
}

describe('createLogger redaction', () => {
  it('keeps database parameters, row details and key hashes out of error lines', () => {
    const { logger, text } = capture();
    const err = Object.assign(new Error('duplicate key'), {
      parameters: ['9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'],
      detail: 'Key (key_hash)=(9f86d081884c7d65...) already exists.',
    });
    logger.error({ err, key_hash: 'abc123hash', nested: { key_hash: 'def456hash' } }, 'insert failed');
    const out = text();
    expect(out).toContain('duplicate key');
    for (const secret of ['9f86d081884c7d65', 'abc123hash', 'def456hash']) expect(out).not.toContain(secret);
  });

  it('redacts authorization headers and keys', () => {
    const { logger, text } = capture();
    logger.info({ headers: { authorization: 'Bearer sk-secret-1' }, api_key: 'sk-secret-2', key: 'sk-secret-3' }, 'request');
    expect(text()).not.toMatch(/sk-secret/);
  });
});

describe('createLogger level', () => {
  it('refuses an unknown LOG_LEVEL naming the variable and the levels it takes', () => {
    expect(() => createLogger('test', 'verbose')).toThrow(
      'LOG_LEVEL must be one of: trace, debug, info, warn, error, fatal, silent (got "verbose")',
    );
    expect(createLogger('test', 'silent').level).toBe('silent');
    expect(createLogger('test', 'debug').level).toBe('debug');
  });
});
