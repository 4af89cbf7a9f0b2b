/** Environment access with validation at start: a bad value stops the process with a clear message. */
import { z } from 'zod';

export function readEnv<S extends z.ZodObject>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
  throw new Error(`Invalid environment:\n${lines.join('\n')}`);
}

export const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

/** For z.preprocess: a blank variable counts as unset (`FOO=` in a compose file or a chart). */
export const blankAsUnset = (v: unknown): unknown => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** An optional whole number from min to max; blank counts as unset (not as 0). `message` names the variable. */
export const wholeNumber = (min: number, max: number, message: string) =>
  z.preprocess(blankAsUnset, z.coerce.number(message).int(message).min(min, message).max(max, message).optional());

export const brokersList = z.string().transform((s) =>
  s
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean),
);
