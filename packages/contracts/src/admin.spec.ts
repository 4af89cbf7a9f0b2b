import { bootstrapCreditUsdEnv, createAccountSchema, createKeySchema, MAX_BALANCE_MICROS } from './admin';

describe('UNIGATE_BOOTSTRAP_CREDIT_USD', () => {
  const message = (value: string) => bootstrapCreditUsdEnv.safeParse(value).error?.issues[0]?.message;

  it('reads USD from the environment, 100 when unset', () => {
    expect(bootstrapCreditUsdEnv.parse(undefined)).toBe(100);
    expect(bootstrapCreditUsdEnv.parse('2.5')).toBe(2.5);
    expect(bootstrapCreditUsdEnv.parse('0')).toBe(0);
  });

  it('says what is wrong with a bad value', () => {
    expect(message('1e13')).toBe('UNIGATE_BOOTSTRAP_CREDIT_USD must be at most 1000000000 USD');
    expect(message('-1')).toBe('UNIGATE_BOOTSTRAP_CREDIT_USD must not be negative');
    expect(message('abc')).toBe('UNIGATE_BOOTSTRAP_CREDIT_USD must be a number of USD');
    expect(message('0.0000001')).toBe('UNIGATE_BOOTSTRAP_CREDIT_USD must be a whole number of micro-dollars (at most 6 decimals)');
  });
});

it('the balance ceiling is a whole number of micro-USD a JS number holds exactly', () => {
  expect(Number.isSafeInteger(MAX_BALANCE_MICROS)).toBe(true);
});

it('refuses a name or reference with a bidirectional control, which would show another text than it holds', () => {
  const refused = createKeySchema.safeParse({ name: 'evil\u202etxt.exe' });
  expect(refused.success).toBe(false);
  expect(refused.error?.issues[0].message).toMatch(/^name must not contain bidirectional control characters/);
  expect(createAccountSchema.safeParse({ name: 'team \u2067x' }).success).toBe(false);
  // Right-to-left text itself is a name like any other.
  expect(createKeySchema.safeParse({ name: 'מפתח ראשי' }).success).toBe(true);
});
