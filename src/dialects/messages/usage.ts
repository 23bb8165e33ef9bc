import type { CoreUsage } from '../../core/events.js';

type CountName = 'input_tokens' | 'output_tokens';

export interface MessagesUsage {
  input_tokens: number;
  output_tokens: number;
  /** Names every count sent as an unmeasured 0; on a message only when there is one. */
  service?: { unreported: CountName[] };
}

/**
 * `usage` always states both counts. A count nothing measured is sent as 0 and named in
 * `service.unreported`; the member is absent when both were reported, and names both when no
 * usage arrived at all.
 */
export function encodeMessagesUsage(usage: CoreUsage | undefined): MessagesUsage {
  const unreported = unreportedCounts(usage);
  const encoded: MessagesUsage = { input_tokens: usage?.promptTokens ?? 0, output_tokens: usage?.completionTokens ?? 0 };
  if (unreported.length > 0) encoded.service = { unreported };
  return encoded;
}

/**
 * The usage of a stream's final `message_delta`: the whole message's counts, replacing those of
 * `message_start`, which named both unreported. `service.unreported` is therefore always stated,
 * and is empty when both counts were reported: that clears the marker `message_start` set for a
 * client that lays the delta's usage over the start's.
 */
export function encodeDeltaUsage(usage: CoreUsage | undefined): Required<MessagesUsage> {
  return { input_tokens: usage?.promptTokens ?? 0, output_tokens: usage?.completionTokens ?? 0, service: { unreported: unreportedCounts(usage) } };
}

function unreportedCounts(usage: CoreUsage | undefined): CountName[] {
  const unreported: CountName[] = [];
  if (usage?.promptTokens === undefined) unreported.push('input_tokens');
  if (usage?.completionTokens === undefined) unreported.push('output_tokens');
  return unreported;
}
