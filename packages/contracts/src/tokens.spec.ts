import fc from 'fast-check';
import type { ChatMessage } from './chat';
import {
  countAnthropicPromptTokens,
  countPromptTokens,
  countResponsesPromptTokens,
  countTextTokens,
  IMAGE_BLOCK_TOKENS,
  MESSAGE_OVERHEAD_TOKENS,
  REPLY_PRIMING_TOKENS,
  imageUrlIsLengthy,
  noMedia,
  splitTextTokens,
} from './tokens';

describe('countTextTokens', () => {
  it('counts words and punctuation runs, not whitespace', () => {
    expect(countTextTokens('')).toBe(0);
    expect(countTextTokens('   \n\t')).toBe(0);
    expect(countTextTokens('Hello, world!')).toBe(4);
    expect(countTextTokens('a  b\nc')).toBe(3);
    expect(countTextTokens('{"city":"Paris"}')).toBe(5); // {"  city  ":"  Paris  "}
  });

  it('splits long runs every 8 characters so blobs are not one token', () => {
    expect(countTextTokens('abcdefgh')).toBe(1);
    expect(countTextTokens('abcdefghi')).toBe(2);
    expect(countTextTokens('x'.repeat(80))).toBe(10);
    expect(countTextTokens('!!!!!!!!!!')).toBe(2);
  });

  it('counts each CJK character as a token', () => {
    expect(countTextTokens('你好世界')).toBe(4);
    expect(countTextTokens('abc你好')).toBe(3);
    expect(countTextTokens('こんにちは')).toBe(5);
  });

  it('treats accented letters and digits as word characters', () => {
    expect(countTextTokens('café 2024')).toBe(2);
  });

  it('is deterministic across calls (no regex state leaks)', () => {
    const text = 'The quick brown fox, jumps over the lazy dog.';
    expect(countTextTokens(text)).toBe(countTextTokens(text));
    expect(countTextTokens(text)).toBe(11);
  });
});

describe('countTextTokens counts exactly what the token regex matches', () => {
  // The definition: one token per match of this regex (the scan in tokens.ts must agree everywhere).
  const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}';
  const reference = new RegExp(`[${CJK}]|(?:(?![${CJK}])[\\p{L}\\p{M}\\p{N}_]){1,8}|[^\\s\\p{L}\\p{M}\\p{N}_]{1,8}`, 'gu');
  const byRegex = (text: string) => text.match(reference)?.length ?? 0;
  // Characters where the classes meet: CJK letters and a CJK radical (a symbol of the Han script),
  // 〇 (a Han number), combining marks, Unicode spaces, an astral emoji and letter, lone surrogates.
  const edges = [
    'a',
    'Z',
    '0',
    '_',
    ' ',
    '\t',
    '\n',
    '\u00a0',
    '\u2003',
    '\u3000',
    '\ufeff',
    '!',
    '"',
    '{',
    '-',
    '.',
    'é',
    'e\u0301',
    '你',
    'こ',
    'カ',
    '한',
    '\u2e80',
    '\u3007',
    '\u3001',
    'ー',
    '・',
    '😀',
    '𝔘',
    '𠀀',
    '\ud800',
    '\udc00',
    'ß',
    'Ω',
    '٣',
  ];

  it('on text made of the characters where the classes meet', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...edges), { maxLength: 60 }), (chars) => {
        const text = chars.join('');
        expect(countTextTokens(text)).toBe(byRegex(text));
      }),
      { numRuns: 2_000 },
    );
  });

  it('on any code points, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (text) => {
        expect(countTextTokens(text)).toBe(byRegex(text));
      }),
      { numRuns: 2_000 },
    );
  });

  it('on a long prompt', () => {
    const text = Array.from({ length: 400 }, (_, i) => `Line ${i}: const x_${i} = compute(y, "z"); // 你好 ${'#'.repeat(i % 20)}\n`).join(
      '',
    );
    expect(countTextTokens(text)).toBe(byRegex(text));
  });
});

describe('splitTextTokens', () => {
  it('gives back the text when joined', () => {
    const text = '  Hello, world!  Über 你好 {"a":1}\n';
    expect(splitTextTokens(text).join('')).toBe(text);
  });

  it('holds one token per piece, so any prefix counts exactly', () => {
    const text = 'Alpha, beta; gamma-delta: supercalifragilistic 你好 "quoted" 12345678901.';
    const pieces = splitTextTokens(text);
    expect(pieces.length).toBe(countTextTokens(text));
    for (let k = 0; k <= pieces.length; k++) {
      expect(countTextTokens(pieces.slice(0, k).join(''))).toBe(k);
    }
  });

  it('keeps leading whitespace with the token and trailing whitespace on the last piece', () => {
    expect(splitTextTokens(' a b. ')).toEqual([' a', ' b', '. ']);
    expect(splitTextTokens('')).toEqual([]);
    expect(splitTextTokens('   ')).toEqual(['   ']);
  });
});

describe('countPromptTokens', () => {
  const overhead = (messages: number) => REPLY_PRIMING_TOKENS + messages * MESSAGE_OVERHEAD_TOKENS;

  it('counts string contents plus fixed overheads', () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi there' },
    ];
    expect(countPromptTokens(messages)).toBe(overhead(2) + 3 + 2);
  });

  it('counts text blocks and a fixed cost per image block', () => {
    const messages: ChatMessage[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,' + 'A'.repeat(10_000) } },
        ],
      },
    ];
    expect(countPromptTokens(messages)).toBe(overhead(1) + 4 + IMAGE_BLOCK_TOKENS);
  });

  it('counts tool-call names and arguments, names, and tolerates null content', () => {
    const messages: ChatMessage[] = [
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
      { role: 'user', name: 'alice', content: 'ok' },
    ];
    // get_weather is 11 word characters: 2 tokens.
    expect(countPromptTokens(messages)).toBe(overhead(3) + 2 + 5 + 1 + 1 + 1);
  });

  it('is the fixed overhead for empty contents', () => {
    expect(countPromptTokens([])).toBe(REPLY_PRIMING_TOKENS);
    expect(countPromptTokens([{ role: 'user', content: '' }])).toBe(overhead(1));
  });
});

describe('countAnthropicPromptTokens', () => {
  const prompt = (block: { type: string } & Record<string, unknown>) =>
    countAnthropicPromptTokens({ messages: [{ content: [block] }] }) - REPLY_PRIMING_TOKENS - MESSAGE_OVERHEAD_TOKENS;
  const text = 'lorem ipsum dolor sit amet '.repeat(10_000);

  it('counts a document by its text or its blocks: a fixed cost would hold a long text far below its charge', () => {
    expect(prompt({ type: 'document', source: { type: 'text', media_type: 'text/plain', data: text }, title: 'T' })).toBe(
      countTextTokens(text) + countTextTokens('T'),
    );
    const blocks = [
      { type: 'text', text },
      { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
    ];
    expect(prompt({ type: 'document', source: { type: 'content', content: blocks } })).toBe(countTextTokens(text) + IMAGE_BLOCK_TOKENS);
    // A PDF (or a URL) has no text to count here: an image's fixed cost.
    expect(prompt({ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' } })).toBe(
      IMAGE_BLOCK_TOKENS,
    );
  });

  it('counts a search result by its title, source and blocks, also inside a tool result', () => {
    const search = { type: 'search_result', source: 'https://example.com', title: 'Found', content: [{ type: 'text', text }] };
    const own = countTextTokens('https://example.com') + countTextTokens('Found') + countTextTokens(text);
    expect(prompt(search)).toBe(own);
    expect(prompt({ type: 'tool_result', tool_use_id: 't', content: [search] })).toBe(MESSAGE_OVERHEAD_TOKENS + own);
  });
});

describe('media the counters cannot measure', () => {
  const chatFound = (content: unknown[]) => {
    const media = noMedia();
    countPromptTokens([{ role: 'user', content } as never], media);
    return media.found;
  };

  it('is reported for video, audio and non-image files, never for text or images', () => {
    expect(
      chatFound([
        { type: 'text', text: 'hi' },
        { type: 'image_url', image_url: { url: 'https://x/cat.jpg' } },
      ]),
    ).toBe(false);
    expect(chatFound([{ type: 'video_url', video_url: { url: 'https://x/a' } }])).toBe(true);
    expect(chatFound([{ type: 'audio_url', audio_url: { url: 'https://x/a' } }])).toBe(true);
    expect(chatFound([{ type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } }])).toBe(true);
    expect(chatFound([{ type: 'image_url', image_url: { url: 'https://x/doc.PDF#page=2' } }])).toBe(true);
  });

  it('counts the images apart, in every format, nested ones too, and a lengthy file as no image', () => {
    const chat = noMedia();
    countPromptTokens(
      [
        {
          role: 'user',
          content: [
            { type: 'image_url', image_url: { url: 'https://x/cat.jpg' } },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBOR' } },
            { type: 'image_url', image_url: { url: 'https://x/doc.pdf' } },
          ],
        } as never,
      ],
      chat,
    );
    expect(chat).toEqual({ found: true, images: 2 });

    const png = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBOR' } };
    const messages = noMedia();
    countAnthropicPromptTokens(
      { messages: [{ content: [png, { type: 'tool_result', tool_use_id: 't', content: [png, png] }] }] },
      messages,
    );
    expect(messages).toEqual({ found: false, images: 3 });

    const responses = noMedia();
    countResponsesPromptTokens(
      {
        input: [
          {
            type: 'message',
            role: 'user',
            content: [
              { type: 'input_image', image_url: 'https://x/cat.webp', detail: 'auto' },
              { type: 'input_file', file_data: 'JVBERi0=', filename: 'a.pdf' },
            ],
          },
        ],
      } as never,
      responses,
    );
    expect(responses).toEqual({ found: true, images: 1 });
  });

  it('tells an image URL from a lengthy file by its data type or extension; no extension is an image', () => {
    expect(imageUrlIsLengthy('data:image/png;base64,iVBOR')).toBe(false);
    expect(imageUrlIsLengthy('data:video/mp4;base64,AAAA')).toBe(true);
    expect(imageUrlIsLengthy('https://youtube.example/watch?v=x.mp4')).toBe(false);
    expect(imageUrlIsLengthy('https://x/clip.webm?sig=a.png')).toBe(true);
    expect(imageUrlIsLengthy('https://x/signed')).toBe(false);
  });
});
