/** The gateway's chat adapters as these tests drive them: the answer without its measurement. */
import type { Channel, ChatCompletionChunk, ChatCompletionRequest, ChatCompletionResponse } from '@unigate/contracts';
import { chatProviderFor, type HttpClient, type MeasuredStream } from '@unigate/providers';

export interface TestChatAdapter {
  complete(channel: Channel, body: ChatCompletionRequest): Promise<ChatCompletionResponse>;
  stream(channel: Channel, body: ChatCompletionRequest, signal?: AbortSignal): MeasuredStream<ChatCompletionChunk>;
}

export function chatAdapter(protocol: string, http: HttpClient): TestChatAdapter {
  const provider = chatProviderFor(protocol, http);
  if (!provider) throw new Error(`no chat adapter for ${protocol}`);
  return {
    complete: async (channel, body) => (await provider.complete(channel, body)).value,
    stream: (channel, body, signal) => provider.stream(channel, body, signal),
  };
}

// Response bodies here are whatever the simulator sent; tests inspect them loosely.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Loose = any;
export const json = (r: Response): Promise<Loose> => r.json();
