import type { FinishReason } from '../../core/events.js';

export type StopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'refusal';

/** How the answer ended, as the core reports it. */
export interface AnswerEnd {
  reason: FinishReason | undefined;
  raw: string | null;
  stopSequence?: string | undefined;
  refused: boolean;
}

/** What ended the answer, in this dialect's terms (`stop_reason`). */
export function stopReason(finish: AnswerEnd): StopReason {
  if (finish.refused) return 'refusal';
  if (finish.stopSequence !== undefined) return 'stop_sequence';
  switch (finish.reason) {
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
      return 'tool_use';
    case 'content_filter':
      return 'refusal';
    case 'stop':
      return finish.raw === 'stop_sequence' ? 'stop_sequence' : 'end_turn';
    case 'error':
    case undefined:
      return 'end_turn';
  }
}

/** The `stop_reason` and `stop_sequence` pair: the sequence is named only where the provider named it. */
export function stopVerdict(finish: AnswerEnd): { stop_reason: StopReason; stop_sequence: string | null } {
  return { stop_reason: stopReason(finish), stop_sequence: finish.stopSequence ?? null };
}
