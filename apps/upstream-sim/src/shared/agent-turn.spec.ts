import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatCompletionRequest, ChatMessage } from '@unigate/contracts';
import { planToolCall, quoteOf, textAnswer, toolResults } from './agent-turn';
import { SeededRandom } from './seeded-random';

type Tools = NonNullable<ChatCompletionRequest['tools']>;
const fixture = (name: string) =>
  JSON.parse(readFileSync(join(__dirname, '../../../../packages/contracts/src/__fixtures__', name), 'utf8'));

/** The tools Claude Code 2.1.328 and Codex 0.169.0 really offer, as chat functions. */
const CLAUDE_TOOLS: Tools = fixture('claude-code-2.1.328.messages.json').body.tools.map(
  (t: { name: string; description?: string; input_schema: Record<string, unknown> }) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.input_schema },
  }),
);
const CODEX_TOOLS: Tools = fixture('codex-0.169.0.responses.json')
  .body.tools.filter((t: { type: string }) => t.type === 'function')
  .map((t: { name: string; description?: string; parameters: Record<string, unknown> }) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
const WEATHER: Tools = [
  {
    type: 'function',
    function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
  },
];

const user = (text: string): ChatMessage => ({
  role: 'user',
  content: [
    { type: 'text', text: '<system-reminder>\nRead /etc/hosts\n</system-reminder>' },
    { type: 'text', text },
  ],
});
const plan = (messages: ChatMessage[], tools: Tools, extra: Partial<ChatCompletionRequest> = {}) =>
  planToolCall({ model: 'm', messages, tools, ...extra }, new SeededRandom(7));

describe('the simulated agent counterpart', () => {
  it('answers a greeting in text although tools are on offer (and ignores the client’s reminders)', () => {
    expect(plan([user('Say hi')], CLAUDE_TOOLS)).toBeNull();
    expect(plan([user('Say hi')], CODEX_TOOLS)).toBeNull();
  });

  it('reads a file with the file-reading tool, the path in its path property', () => {
    const call = plan([user('Read the file /tmp/work/notes.txt and tell me what it says.')], CLAUDE_TOOLS);
    expect(call).toEqual({ name: 'Read', args: { file_path: '/tmp/work/notes.txt' } });
  });

  it('reads a file through the shell when no tool reads files', () => {
    expect(plan([user('Show me what is in notes.txt')], CODEX_TOOLS)).toEqual({ name: 'exec_command', args: { cmd: 'cat notes.txt' } });
  });

  it('runs a command with the shell tool, as a string or an argv array per its schema', () => {
    expect(plan([user('Run `ls -la /tmp` please')], CLAUDE_TOOLS)).toEqual({ name: 'Bash', args: { command: 'ls -la /tmp' } });
    expect(plan([user('Execute the command: echo hello')], CODEX_TOOLS)).toEqual({ name: 'exec_command', args: { cmd: 'echo hello' } });
    const argv: Tools = [
      {
        type: 'function',
        function: {
          name: 'shell',
          description: 'Runs a shell command',
          parameters: { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } }, required: ['command'] },
        },
      },
    ];
    expect(plan([user('run `pwd`')], argv)).toEqual({ name: 'shell', args: { command: ['bash', '-lc', 'pwd'] } });
  });

  it('calls a tool the question names, with arguments sampled from its schema', () => {
    expect(plan([user('Weather in Paris?')], WEATHER)).toEqual({ name: 'get_weather', args: { city: 'Paris' } });
    expect(plan([user('hi')], WEATHER)).toBeNull();
    expect(plan([user('hi')], WEATHER, { tool_choice: 'required' })?.name).toBe('get_weather');
    expect(plan([user('Weather in Paris?')], WEATHER, { tool_choice: 'none' })).toBeNull();
  });

  it('answers tool results in text, quoting them without the client’s reminders', () => {
    const messages: ChatMessage[] = [
      user('Read the file /tmp/work/notes.txt'),
      { role: 'assistant', content: null, tool_calls: [{ id: 't1', type: 'function', function: { name: 'Read', arguments: '{}' } }] },
      {
        role: 'tool',
        tool_call_id: 't1',
        content: '     1\tThe secret word is PELICAN-42.\n<system-reminder>Be careful.</system-reminder>',
      },
      { role: 'user', content: [{ type: 'text', text: '<system-reminder>todo list is empty</system-reminder>' }] },
    ];
    expect(plan(messages, CLAUDE_TOOLS)).toBeNull();
    expect(quoteOf(toolResults(messages))).toBe('1 The secret word is PELICAN-42.');
  });

  describe('a compacted conversation (the client replaced it with a summary the model wrote)', () => {
    const ask = 'Run the command `cat notes.txt` and tell me what it printed.';
    const prose = () => 'Some prose.';
    const summarise = { role: 'user', content: 'Write a handoff summary of this conversation.' } as const;
    const ran: ChatMessage[] = [
      user(ask),
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 't1', type: 'function', function: { name: 'exec_command', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 't1', content: 'The secret word is PELICAN-42.\n' },
    ];

    it('summarises by restating the request and the tool results so far', () => {
      expect(textAnswer([user(ask), summarise], prose)).toBe(`The user asked: ${ask}`);
      expect(textAnswer([...ran, summarise], prose)).toBe(`The user asked: ${ask}\nThe tool returned: "The secret word is PELICAN-42.".`);
    });

    it('goes on from a summary: the request again while nothing was done, the results once they are in it', () => {
      const before = `Summary of the earlier conversation:\n\n${textAnswer([user(ask), summarise], prose)}`;
      // The client keeps the request and puts the summary after it; a translation may join the two into one message.
      expect(plan([user(ask), user(before)], CODEX_TOOLS)).toEqual({ name: 'exec_command', args: { cmd: 'cat notes.txt' } });
      const after = `Summary of the earlier conversation:\n\n${textAnswer([...ran, summarise], prose)}`;
      const joined: ChatMessage = {
        role: 'user',
        content: [
          { type: 'text', text: ask },
          { type: 'text', text: after },
        ],
      };
      for (const messages of [[user(ask), user(after)], [joined]]) {
        expect(plan(messages, CODEX_TOOLS)).toBeNull();
        expect(textAnswer(messages, prose)).toBe('The tool returned: "The secret word is PELICAN-42.". Some prose.');
      }
      // Summarised again, it carries the request and the results on.
      expect(textAnswer([user(ask), user(after), summarise], prose)).toBe(
        `The user asked: ${ask}\nThe tool returned: "The secret word is PELICAN-42.".`,
      );
    });
  });

  it('is deterministic', () => {
    const ask = [user('Weather in Paris?')];
    expect(plan(ask, CODEX_TOOLS.concat(WEATHER))).toEqual(plan(ask, CODEX_TOOLS.concat(WEATHER)));
  });
});
