import { countResponsesPromptTokens, countTextTokens } from '../tokens';
import {
  asksForCompaction,
  COMPACTION_PROMPT,
  compactionInput,
  compactionItem,
  ownCompactionSummary,
  SUMMARY_PREFIX,
  touchesCompaction,
} from './compaction';
import type { ResponsesInputItem } from './request';

const asItem = (v: unknown) => v as ResponsesInputItem;
const user = (content: string) => asItem({ type: 'message', role: 'user', content });

describe('compaction items of the gateway’s own', () => {
  it('carry their summary and give it back, any text', () => {
    for (const summary of ['', 'plain', 'ünïcødé — 日本語 🚀', 'a\u0000b', 'x'.repeat(100_000)]) {
      expect(ownCompactionSummary(asItem(compactionItem('cmp_1', summary)))).toBe(summary);
    }
  });

  it('are told from any other item, an OpenAI compaction included', () => {
    expect(ownCompactionSummary(asItem({ type: 'compaction', encrypted_content: 'gAAAA-sealed' }))).toBeNull();
    expect(ownCompactionSummary(asItem({ type: 'compaction' }))).toBeNull();
    expect(ownCompactionSummary(user('unigate-compaction-v1.aGk'))).toBeNull();
  });
});

describe('compactionInput', () => {
  it('puts the prompt in place of the trigger and reads own items as summaries, leaving the rest', () => {
    const foreign = asItem({ type: 'compaction', encrypted_content: 'gAAAA' });
    const input = [asItem(compactionItem('cmp_1', 'so far')), foreign, user('hi'), asItem({ type: 'compaction_trigger' })];
    expect(compactionInput(input)).toEqual([user(SUMMARY_PREFIX + 'so far'), foreign, user('hi'), user(COMPACTION_PROMPT)]);
    expect(asksForCompaction({ input })).toBe(true);
    expect(touchesCompaction({ input: [foreign, user('hi')] })).toBe(false);
    expect(touchesCompaction({ input: 'a string' })).toBe(false);
  });

  it('is counted for the hold as the upstream gets it: the prompt for a trigger, the summary for an own item', () => {
    const base = countResponsesPromptTokens({ input: [user('hi')] });
    expect(countResponsesPromptTokens({ input: [user('hi'), asItem({ type: 'compaction_trigger' })] })).toBeGreaterThanOrEqual(
      base + countTextTokens(COMPACTION_PROMPT),
    );
    const summary = 'word '.repeat(2_000);
    expect(countResponsesPromptTokens({ input: [user('hi'), asItem(compactionItem('c', summary))] })).toBeGreaterThanOrEqual(
      base + countTextTokens(summary),
    );
  });
});
