/**
 * How every Kafka client of a process connects: TLS and SASL from the environment, so managed
 * clusters (which require both) work with the same images. Read once per bus; a bad value stops the
 * process at start, naming the variable.
 *
 *   KAFKA_SSL=true                 TLS, the system's CAs (KAFKA_SSL_CA_FILE adds a PEM bundle)
 *   KAFKA_SASL_MECHANISM           plain | scram-sha-256 | scram-sha-512
 *   KAFKA_SASL_USERNAME / _PASSWORD the credentials (the password never reaches a log line)
 */
import { readFileSync } from 'node:fs';
import type { KafkaConfig } from 'kafkajs';
import { z } from 'zod';
import { blankAsUnset, readEnv } from '../env';

const securityEnv = z
  .object({
    KAFKA_SSL: z.preprocess(blankAsUnset, z.enum(['true', 'false'], { error: 'KAFKA_SSL must be true or false' }).optional()),
    KAFKA_SSL_CA_FILE: z.preprocess(blankAsUnset, z.string().optional()),
    KAFKA_SASL_MECHANISM: z.preprocess(
      (v) => (typeof blankAsUnset(v) === 'string' ? (v as string).toLowerCase() : undefined),
      z
        .enum(['plain', 'scram-sha-256', 'scram-sha-512'], {
          error: 'KAFKA_SASL_MECHANISM must be plain, scram-sha-256 or scram-sha-512',
        })
        .optional(),
    ),
    KAFKA_SASL_USERNAME: z.preprocess(blankAsUnset, z.string().optional()),
    KAFKA_SASL_PASSWORD: z.preprocess(blankAsUnset, z.string().optional()),
  })
  .superRefine((e, ctx) => {
    if (e.KAFKA_SASL_MECHANISM && (!e.KAFKA_SASL_USERNAME || !e.KAFKA_SASL_PASSWORD)) {
      ctx.addIssue({ code: 'custom', path: ['KAFKA_SASL_MECHANISM'], message: 'needs KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD' });
    }
    if (!e.KAFKA_SASL_MECHANISM && (e.KAFKA_SASL_USERNAME || e.KAFKA_SASL_PASSWORD)) {
      ctx.addIssue({ code: 'custom', path: ['KAFKA_SASL_MECHANISM'], message: 'must be set when a SASL username or password is' });
    }
    if (e.KAFKA_SSL_CA_FILE && e.KAFKA_SSL !== 'true') {
      ctx.addIssue({ code: 'custom', path: ['KAFKA_SSL_CA_FILE'], message: 'is used only with KAFKA_SSL=true' });
    }
  });

/** kafkajs's `ssl` and `sasl` for this environment (neither when nothing is set: plaintext). */
export function kafkaSecurity(env: NodeJS.ProcessEnv = process.env): Pick<KafkaConfig, 'ssl' | 'sasl'> {
  const e = readEnv(securityEnv, env);
  const out: Pick<KafkaConfig, 'ssl' | 'sasl'> = {};
  if (e.KAFKA_SSL === 'true') {
    out.ssl = e.KAFKA_SSL_CA_FILE ? { ca: [readCa(e.KAFKA_SSL_CA_FILE)] } : true;
  }
  if (e.KAFKA_SASL_MECHANISM) {
    const credentials = { username: e.KAFKA_SASL_USERNAME!, password: e.KAFKA_SASL_PASSWORD! };
    out.sasl =
      e.KAFKA_SASL_MECHANISM === 'plain'
        ? { mechanism: 'plain', ...credentials }
        : e.KAFKA_SASL_MECHANISM === 'scram-sha-256'
          ? { mechanism: 'scram-sha-256', ...credentials }
          : { mechanism: 'scram-sha-512', ...credentials };
  }
  return out;
}

function readCa(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`Invalid environment:\n  KAFKA_SSL_CA_FILE: cannot read ${file}: ${(err as Error).message}`);
  }
}
