/**
 * Where the fields of a translated chat request came from in the client's own request, so that a 400
 * about the chat request — from a chat adapter's translation (a tool call's arguments Gemini cannot
 * read, an image URL Anthropic cannot fetch, a conversation left empty) or from a chat upstream —
 * names the client's field (`input[1].arguments`, `messages[0].content[1].tool_use_id`) instead of
 * the chat one it became (`messages[1].tool_calls[0].function.arguments`).
 *
 * The translators (Responses → chat, messages → chat) record each chat path they write and the
 * client path it stands for; a chat path that was not recorded is named by its nearest recorded
 * ancestor (a block's sub-field by its block, a message's by its item), never by itself: a chat path
 * means nothing to a client that never sent chat completions.
 */
import {
  GatewayError,
  withParam,
  type Channel,
  type ChatCompletionChunk,
  type ChatCompletionRequest,
  type ChatMessage,
} from '@unigate/contracts';
import type { MeasuredStream } from '../adapter';
import type { ChatProvider } from '../types';

export class ClientPaths {
  private readonly byChatPath = new Map<string, string>();

  /** `chatPath` (`messages[2].tool_call_id`) stands for `clientPath` (`input[4].call_id`). */
  set(chatPath: string, clientPath: string): void {
    this.byChatPath.set(chatPath, clientPath);
  }

  /** The client's path for a chat path: its own, or its nearest recorded ancestor's; null when neither was recorded. */
  clientPathOf(chatPath: string): string | null {
    for (let path = chatPath; path; path = parentOf(path)) {
      const client = this.byChatPath.get(path);
      if (client !== undefined) return client;
    }
    return null;
  }

  /** A 400 naming a chat field, naming the client's instead; anything else as it is. */
  rename(err: unknown): unknown {
    if (!GatewayError.is(err) || err.status !== 400 || err.param === null) return err;
    return withParam(err, this.clientPathOf(err.param));
  }

  /** `chat` with every 400 it throws naming the client's fields. */
  naming(chat: ChatProvider): ChatProvider {
    const rename = (err: unknown) => this.rename(err);
    return {
      complete: (channel, body, signal) => chat.complete(channel, body, signal).catch((err: unknown) => Promise.reject(rename(err))),
      stream(channel: Channel, body: ChatCompletionRequest, signal?: AbortSignal): MeasuredStream<ChatCompletionChunk> {
        let inner: MeasuredStream<ChatCompletionChunk>;
        try {
          inner = chat.stream(channel, body, signal);
        } catch (err) {
          throw rename(err);
        }
        return {
          async *[Symbol.asyncIterator]() {
            try {
              yield* inner;
            } catch (err) {
              throw rename(err);
            }
          },
          usage: () => inner.usage(),
        };
      },
    };
  }
}

/**
 * The chat messages a translator writes and, given ClientPaths, where each came from: `push` records
 * a message and its fields (chat name → the client's name), `part` a block of the message pushed
 * next, `toolCall` a call of the message pushed last. Without ClientPaths it only collects messages.
 */
export class ChatMessageWriter {
  readonly messages: ChatMessage[] = [];

  /** `clientMessages`: the client's field the chat `messages` stand for (`input`, `messages`). */
  constructor(
    private readonly paths: ClientPaths | undefined,
    clientMessages: string,
  ) {
    paths?.set('messages', clientMessages);
  }

  /** `message`, standing for the client's `path`; `fields` names its chat fields' counterparts there. */
  push(path: string, message: ChatMessage, fields: Readonly<Record<string, string>> = {}): void {
    if (this.paths) {
      const at = `messages[${this.messages.length}]`;
      this.paths.set(at, path);
      for (const [chat, client] of Object.entries(fields)) this.paths.set(`${at}.${chat}`, `${path}.${client}`);
    }
    this.messages.push(message);
  }

  /** Block `j` of the message pushed next stands for `clientPath` (`suffix`: a field of the block). */
  part(j: number, clientPath: string, suffix = ''): void {
    this.paths?.set(`messages[${this.messages.length}].content[${j}]${suffix}`, clientPath);
  }

  /** Tool call `j` of the message pushed last stands for `path`, its id, name and arguments for `fields` there. */
  toolCall(j: number, path: string, fields: { id: string; name: string; arguments: string }): void {
    if (!this.paths) return;
    const at = `messages[${this.messages.length - 1}].tool_calls[${j}]`;
    this.paths.set(at, path);
    this.paths.set(`${at}.id`, `${path}.${fields.id}`);
    this.paths.set(`${at}.function.name`, `${path}.${fields.name}`);
    this.paths.set(`${at}.function.arguments`, `${path}.${fields.arguments}`);
  }

  /** Request-wide chat fields (chat path → the client's). */
  settings(fields: Readonly<Record<string, string>>): void {
    for (const [chat, client] of Object.entries(fields)) this.paths?.set(chat, client);
  }
}

/** `messages[2].content[1]` → `messages[2].content` → `messages[2]` → `messages` → ''. */
function parentOf(path: string): string {
  const cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
  return cut < 0 ? '' : path.slice(0, cut);
}
