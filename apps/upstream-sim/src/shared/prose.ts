/**
 * Deterministic prose: sentences of common words picked by a seeded generator. Every word is at most
 * 8 letters and punctuation never touches other punctuation, so each word and each mark is exactly one
 * token for countTextTokens — the requested length is met exactly.
 */
import type { SeededRandom } from './seeded-random';

const WORDS = [
  'the',
  'a',
  'model',
  'answer',
  'simple',
  'gateway',
  'request',
  'stream',
  'token',
  'result',
  'value',
  'system',
  'quick',
  'steady',
  'clear',
  'river',
  'mountain',
  'light',
  'signal',
  'garden',
  'engine',
  'careful',
  'bright',
  'useful',
  'data',
  'network',
  'small',
  'large',
  'window',
  'silver',
  'forest',
  'ocean',
  'travels',
  'returns',
  'builds',
  'measures',
  'finds',
  'keeps',
  'shows',
  'moves',
  'quietly',
  'often',
  'always',
  'never',
  'today',
  'again',
  'through',
  'between',
  'under',
  'over',
  'with',
  'without',
  'for',
  'from',
  'into',
  'about',
  'every',
  'some',
  'many',
  'each',
  'question',
  'number',
  'pattern',
  'story',
  'reason',
  'method',
  'record',
  'channel',
  'balance',
  'ledger',
  'is',
  'was',
  'can',
  'will',
  'should',
  'might',
  'has',
  'had',
  'does',
  'makes',
  'north',
  'winter',
  'summer',
  'morning',
  'evening',
  'paper',
  'stone',
  'glass',
  'cloud',
  'harbor',
] as const;

export function proseWords(rng: SeededRandom, count: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(rng.pick(WORDS));
  return out;
}

/** Prose of about `targetTokens` tokens (never fewer), ending with a full stop. */
export function generateProse(rng: SeededRandom, targetTokens: number): string {
  const sentences: string[] = [];
  let tokens = 0;
  while (tokens < targetTokens) {
    const words = proseWords(rng, rng.int(5, 12));
    words[0] = words[0][0].toUpperCase() + words[0].slice(1);
    const comma = words.length > 7 && rng.chance(0.5) ? rng.int(2, words.length - 3) : -1;
    const sentence = words.map((w, i) => (i === comma ? `${w},` : w)).join(' ') + '.';
    sentences.push(sentence);
    tokens += words.length + 1 + (comma >= 0 ? 1 : 0);
  }
  return sentences.join(' ');
}
