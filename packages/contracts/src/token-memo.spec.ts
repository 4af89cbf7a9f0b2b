import { countPromptTokens, countTextTokens } from './tokens';
import { TOKEN_MEMO_MAX_TEXT_CHARS, TOKEN_MEMO_MIN_CHARS, TokenCountMemo, withTokenMemo } from './token-memo';

/** Exactly `chars` characters of code-like text with some CJK, distinct per seed. */
function text(seed: string, chars: number): string {
  const unit = `${seed} const x = compute(y, "z"); 漢字 `;
  return unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars);
}

/** A scan that counts like countTextTokens and says how often it ran. */
function countingScan() {
  const scanned: string[] = [];
  return { scanned, scan: (t: string) => (scanned.push(t), countTextTokens(t)) };
}

describe('TokenCountMemo', () => {
  it("answers an account's long text from memory the second time, with the scan's count", () => {
    const memo = new TokenCountMemo();
    const { scanned, scan } = countingScan();
    const long = text('a', 2_000);
    expect(memo.count('acct_1', long, scan)).toBe(countTextTokens(long));
    expect(memo.count('acct_1', long, scan)).toBe(countTextTokens(long));
    expect(scanned).toHaveLength(1);
    expect(memo.hits).toBe(1);
  });

  it("never answers one account from another's text: the other account pays the scan, then is remembered too", () => {
    const memo = new TokenCountMemo();
    const { scanned, scan } = countingScan();
    const shared = text('system prompt', 3_000);
    memo.count('acct_1', shared, scan);
    expect(memo.count('acct_2', shared, scan)).toBe(countTextTokens(shared));
    expect(scanned).toHaveLength(2);
    expect(memo.hits).toBe(0);
    memo.count('acct_2', shared, scan);
    expect(scanned).toHaveLength(2);
    expect(memo.hits).toBe(1);
    // The text is held once, whoever sent it.
    expect(memo.chars).toBe(shared.length);
  });

  it('holds at most its bound of characters, dropping the least recently used first', () => {
    const memo = new TokenCountMemo(10_000);
    const { scanned, scan } = countingScan();
    const texts = Array.from({ length: 8 }, (_, i) => text(`t${i}`, 3_000));
    memo.count('a', texts[0], scan);
    memo.count('a', texts[1], scan);
    memo.count('a', texts[2], scan);
    memo.count('a', texts[0], scan); // used again: now the newest
    memo.count('a', texts[3], scan); // over 10,000: texts[1] goes
    expect(memo.chars).toBeLessThanOrEqual(10_000);
    scanned.length = 0;
    memo.count('a', texts[0], scan);
    expect(scanned).toHaveLength(0);
    memo.count('a', texts[1], scan);
    expect(scanned).toEqual([texts[1]]);
    for (const t of texts) memo.count('a', t, scan);
    expect(memo.chars).toBeLessThanOrEqual(10_000);
  });
});

describe('withTokenMemo', () => {
  it('counts exactly what countTextTokens counts without it, for texts of every size', () => {
    const memo = new TokenCountMemo();
    const sizes = [
      0,
      1,
      TOKEN_MEMO_MIN_CHARS - 1,
      TOKEN_MEMO_MIN_CHARS,
      5_000,
      TOKEN_MEMO_MAX_TEXT_CHARS,
      TOKEN_MEMO_MAX_TEXT_CHARS + 1,
      40_000,
    ];
    const messages = sizes.map((n, i) => ({ role: 'user' as const, content: text(`m${i}`, n) }));
    const plain = countPromptTokens(messages);
    expect(withTokenMemo(memo, 'acct', () => countPromptTokens(messages))).toBe(plain);
    expect(withTokenMemo(memo, 'acct', () => countPromptTokens(messages))).toBe(plain);
    // Remembered: only the texts from the minimum to the longest V8 hashes by content.
    expect(memo.chars).toBe(TOKEN_MEMO_MIN_CHARS + 5_000 + TOKEN_MEMO_MAX_TEXT_CHARS);
    expect(memo.hits).toBe(3);
  });

  it('applies only inside its scope, which ends also when the estimate throws', () => {
    const memo = new TokenCountMemo();
    const long = text('b', 1_000);
    expect(() =>
      withTokenMemo(memo, 'acct', () => {
        countTextTokens(long);
        throw new Error('rule failed');
      }),
    ).toThrow('rule failed');
    expect(memo.chars).toBe(long.length);
    countTextTokens(long);
    countTextTokens(text('c', 1_000));
    expect(memo.hits).toBe(0);
    expect(memo.chars).toBe(long.length);
  });
});
