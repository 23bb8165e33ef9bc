import type { CoreUsage } from '../../core/events.js';

type CountName = 'input_tokens' | 'output_tokens';

export interface MessagesUsage {
  input_tokens: number;
  output_tokens: number;
  /** Present only when a count was not measured: names every count sent as an unmeasured 0. */
  service?: { unreported: CountName[] };
}

/**
 * `usage` always states both counts. A count nothing measured is sent as 0 and named in
 * `service.unreported`; the member is absent when both were reported, and names both when no
 * usage arrived at all.
 */
export function encodeMessagesUsage(usage: CoreUsage | undefined): MessagesUsage {
  const unreported: CountName[] = [];
  if (usage?.promptTokens === undefined) unreported.push('input_tokens');
  if (usage?.completionTokens === undefined) unreported.push('output_tokens');
  const encoded: MessagesUsage = { input_tokens: usage?.promptTokens ?? 0, output_tokens: usage?.completionTokens ?? 0 };
  if (unreported.length > 0) encoded.service = { unreported };
  return encoded;
}
