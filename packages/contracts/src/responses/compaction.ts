/**
 * Remote compaction of a Responses conversation, as Codex asks for it when it takes the gateway for
 * OpenAI ("remote compaction v2", captured from Codex 0.169.0): a request whose input ends with
 * `{"type": "compaction_trigger"}` must be answered with exactly one `compaction` output item, which
 * the client then sends back in place of the conversation it replaces.
 *
 * The gateway compacts itself, on any model: it asks the model for a summary (COMPACTION_PROMPT in
 * place of the trigger) and answers a `compaction` item whose `encrypted_content` carries that summary
 * (OWN_COMPACTION_PREFIX + base64url; it is the client's own conversation, so it is encoded, not
 * sealed). An item of its own that comes back is read as a user message holding the summary, for
 * every upstream; one made elsewhere (by OpenAI) is passed on as it is.
 */
import type { ResponsesInputItem, ResponsesRequest } from './request';

export const COMPACTION_PROMPT = [
  'You are compacting this conversation so that it can go on within a smaller context. Write a handoff',
  'summary for the model that will continue it: the task and the user’s requests and preferences, what',
  'has been done and decided so far (commands run, files read or changed, their key results), what is',
  'left to do next, and any facts, names, values or errors needed to go on. Be complete and concise.',
  'Answer with the summary only.',
].join(' ');

export const OWN_COMPACTION_PREFIX = 'unigate-compaction-v1.';

/** How the summary is put before the model when the conversation goes on. */
export const SUMMARY_PREFIX = 'Summary of the earlier conversation, written when it was compacted:\n\n';

// A type, not an interface: it must fit the output items' index signature.
export type CompactionItem = { type: 'compaction'; id: string; encrypted_content: string };

export function compactionItem(id: string, summary: string): CompactionItem {
  return { type: 'compaction', id, encrypted_content: OWN_COMPACTION_PREFIX + Buffer.from(summary, 'utf8').toString('base64url') };
}

/** The summary a compaction item of the gateway's own carries, or null for any other item. */
export function ownCompactionSummary(item: ResponsesInputItem): string | null {
  if (item.type !== 'compaction') return null;
  const content = (item as { encrypted_content?: unknown }).encrypted_content;
  if (typeof content !== 'string' || !content.startsWith(OWN_COMPACTION_PREFIX)) return null;
  return Buffer.from(content.slice(OWN_COMPACTION_PREFIX.length), 'base64url').toString('utf8');
}

export const isCompactionTrigger = (item: ResponsesInputItem) => item.type === 'compaction_trigger';

/**
 * The input as the upstream gets it: the gateway's own compaction items as the summary they carry,
 * and, when the request asks for a compaction, the prompt in place of the trigger.
 */
export function compactionInput(items: readonly ResponsesInputItem[]): ResponsesInputItem[] {
  const out: ResponsesInputItem[] = [];
  let compacting = false;
  for (const item of items) {
    const summary = ownCompactionSummary(item);
    if (summary !== null) out.push({ type: 'message', role: 'user', content: SUMMARY_PREFIX + summary });
    else if (isCompactionTrigger(item)) compacting = true;
    else out.push(item);
  }
  if (compacting) out.push({ type: 'message', role: 'user', content: COMPACTION_PROMPT });
  return out;
}

/** Whether the request asks for a compaction (its input holds a trigger). */
export function asksForCompaction(req: Pick<ResponsesRequest, 'input'>): boolean {
  return Array.isArray(req.input) && req.input.some(isCompactionTrigger);
}

/** Whether the input holds anything compaction changes (a trigger or an item of the gateway's own). */
export function touchesCompaction(req: Pick<ResponsesRequest, 'input'>): boolean {
  return Array.isArray(req.input) && req.input.some((item) => isCompactionTrigger(item) || ownCompactionSummary(item) !== null);
}
