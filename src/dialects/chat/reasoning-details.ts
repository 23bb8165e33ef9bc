import type { ReasoningExtras, ReasoningKind } from '../../core/events.js';

export type ReasoningDetail =
  | { type: 'reasoning.text'; text: string; signature?: string; index: number; format?: string }
  | { type: 'reasoning.summary'; summary: string; index: number; format?: string }
  | { type: 'reasoning.encrypted'; data: string; index: number; format?: string };

/** One reasoning entry (or streamed fragment) in the chat dialect's `reasoning_details` form. */
export function reasoningDetail(kind: ReasoningKind, text: string, index: number, extras: ReasoningExtras = {}): ReasoningDetail {
  const format = extras.format === undefined ? {} : { format: extras.format };
  switch (kind) {
    case 'text':
      return { type: 'reasoning.text', text, ...(extras.signature === undefined ? {} : { signature: extras.signature }), ...format, index };
    case 'summary':
      return { type: 'reasoning.summary', summary: text, ...format, index };
    case 'encrypted':
      return { type: 'reasoning.encrypted', data: text, ...format, index };
  }
}
