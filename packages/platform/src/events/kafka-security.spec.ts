import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../logger';
import { KafkaEventBus } from './kafka-event-bus';
import { kafkaSecurity } from './kafka-security';

describe('kafkaSecurity', () => {
  it('is plaintext when nothing is set (blank counts as unset)', () => {
    expect(kafkaSecurity({})).toEqual({});
    expect(kafkaSecurity({ KAFKA_SSL: '', KAFKA_SASL_MECHANISM: ' ' })).toEqual({});
    expect(kafkaSecurity({ KAFKA_SSL: 'false' })).toEqual({});
  });

  it('gives TLS with the system CAs, or with a PEM bundle from a file', () => {
    expect(kafkaSecurity({ KAFKA_SSL: 'true' })).toEqual({ ssl: true });
    const ca = join(mkdtempSync(join(tmpdir(), 'kafka-ca-')), 'ca.pem');
    writeFileSync(ca, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    expect(kafkaSecurity({ KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: ca })).toEqual({
      ssl: { ca: [expect.stringContaining('BEGIN CERTIFICATE')] },
    });
  });

  it.each(['plain', 'SCRAM-SHA-256', 'scram-sha-512'])('gives SASL %s with its credentials, over TLS or not', (mechanism) => {
    const env = { KAFKA_SASL_MECHANISM: mechanism, KAFKA_SASL_USERNAME: 'gateway', KAFKA_SASL_PASSWORD: 's3cret' };
    const sasl = { mechanism: mechanism.toLowerCase(), username: 'gateway', password: 's3cret' };
    expect(kafkaSecurity(env)).toEqual({ sasl });
    expect(kafkaSecurity({ ...env, KAFKA_SSL: 'true' })).toEqual({ ssl: true, sasl });
  });

  it.each([
    [{ KAFKA_SSL: 'yes' }, 'KAFKA_SSL: KAFKA_SSL must be true or false'],
    [{ KAFKA_SASL_MECHANISM: 'gssapi', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' }, 'KAFKA_SASL_MECHANISM must be plain'],
    [
      { KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'u' },
      'KAFKA_SASL_MECHANISM: needs KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD',
    ],
    [{ KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' }, 'KAFKA_SASL_MECHANISM: must be set when a SASL username or password is'],
    [{ KAFKA_SSL_CA_FILE: '/ca.pem' }, 'KAFKA_SSL_CA_FILE: is used only with KAFKA_SSL=true'],
    [{ KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: '/nonexistent/ca.pem' }, 'KAFKA_SSL_CA_FILE: cannot read /nonexistent/ca.pem'],
  ])('refuses %j, naming the variable', (env, message) => {
    expect(() => kafkaSecurity(env)).toThrow(message);
  });

  it('never puts the password in its refusal', () => {
    expect(() =>
      kafkaSecurity({ KAFKA_SASL_MECHANISM: 'kerberos', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'hunter2-secret' }),
    ).toThrow(expect.objectContaining({ message: expect.not.stringContaining('hunter2-secret') }));
  });

  it('is what every bus connects with: a bad value stops it at construction', () => {
    const saved = process.env.KAFKA_SASL_MECHANISM;
    process.env.KAFKA_SASL_MECHANISM = 'gssapi';
    try {
      expect(() => new KafkaEventBus({ brokers: ['127.0.0.1:9'], clientId: 'spec', logger: createLogger('spec', 'silent') })).toThrow(
        'KAFKA_SASL_MECHANISM',
      );
    } finally {
      if (saved === undefined) delete process.env.KAFKA_SASL_MECHANISM;
      else process.env.KAFKA_SASL_MECHANISM = saved;
    }
  });
});
