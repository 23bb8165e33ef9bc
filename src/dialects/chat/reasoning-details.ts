import type { ReasoningKind } from '../../core/events.js';

export type ReasoningDetail =
  | { type: 'reasoning.text'; text: string; signature?: string; index: number; format?: string }
  | { type: 'reasoning.summary'; summary: string; index: number; format?: string }
  | { type: 'reasoning.encrypted'; data: string; index: number; format?: string };

/** One reasoning entry (or streamed fragment) in the chat dialect's `reasoning_details` form. */
export function reasoningDetail(kind: ReasoningKind, text: string, index: number, signature?: string): ReasoningDetail {
  switch (kind) {
    case 'text':
      return signature === undefined ? { type: 'reasoning.text', text, index } : { type: 'reasoning.text', text, signature, index };
    case 'summary':
      return { type: 'reasoning.summary', summary: text, index };
    case 'encrypted':
      return { type: 'reasoning.encrypted', data: text, index };
  }
}
