import type { FinishReason } from '../../core/events.js';

export type StopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'refusal';

/** What ended the answer, in this dialect's terms (`stop_reason`). */
export function stopReason(finish: { reason: FinishReason | undefined; raw: string | null; refused: boolean }): StopReason {
  if (finish.refused) return 'refusal';
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
