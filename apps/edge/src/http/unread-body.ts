/**
 * An answer sent before its request's body was read to the end: a refusal (over the body limit, past
 * the body budget, a file too large, a bad key before the body). The client is most likely still
 * sending. Closing the connection at once resets it under the client's writes, and it never reads the
 * answer: the openai SDK reported a 40 MB body's 413 as "Connection error" (EPIPE) and retried the
 * upload. So the rest is read and dropped, never kept, for at most UNREAD_BODY_LINGER_MS (nginx's
 * lingering close); a client still sending then has its connection closed. One that finishes keeps
 * its connection.
 */
import { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** How long a refused body's remainder is read and dropped before the connection is closed. */
export const UNREAD_BODY_LINGER_MS = 10_000;

export function dropUnreadBody(request: FastifyRequest, reply: FastifyReply, lingerMs = UNREAD_BODY_LINGER_MS): void {
  const raw = request.raw;
  // An in-process request (LocalCalls: MCP tool calls, WebSocket responses) has no connection and a
  // stand-in socket without destroy(): there is nobody sending to wait for.
  if (raw.complete || raw.destroyed || !(raw.socket instanceof Socket)) return;
  const socket = raw.socket;
  // Fastify asks to close when its parser gives up on a body: the bytes still coming would then be
  // read as the next request. They are read as this one's body instead (Node's parser knows its end).
  reply.removeHeader('connection');
  // Whoever was reading stopped (a parser past the limit, a refused stream): drop what comes.
  raw.resume();
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  timer.unref();
  raw.once('end', () => clearTimeout(timer));
  raw.once('close', () => clearTimeout(timer));
}
