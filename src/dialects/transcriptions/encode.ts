import { srtCaptions, vttCaptions, type TranscriptionAsk, type TranscriptionResult } from '../../core/transcription.js';
import type { ReplyMeta } from '../shared/reply-meta.js';

/**
 * The reply of POST /audio/transcriptions in the format asked: OpenAI's `json` (`{text, usage}`)
 * and `verbose_json` (`{task, language, duration, text, segments?, words?, usage}`), or plain text:
 * the transcript (`text`) or its captions (`srt`, `vtt`), rendered from the endpoint's timed
 * segments. `usage` is the endpoint's token counts where it reported them, else the seconds billed
 * (read from the recording), with the exact `cost` either way.
 */
export function encodeTranscriptionReply(result: TranscriptionResult, _meta: ReplyMeta, ask: TranscriptionAsk, cost: number): unknown {
  switch (ask.format) {
    case 'text':
      return `${result.text}\n`;
    case 'srt':
      return srtCaptions(result.segments ?? []);
    case 'vtt':
      return vttCaptions(result.segments ?? []);
    case 'json':
      return { text: result.text, usage: usageOf(result, ask, cost) };
    case 'verbose_json':
      return {
        task: 'transcribe',
        language: result.language ?? ask.language ?? null,
        duration: result.duration ?? Number(ask.seconds),
        text: result.text,
        ...(result.segments && { segments: result.segments }),
        ...(result.words && { words: result.words }),
        usage: usageOf(result, ask, cost),
      };
  }
}

function usageOf(result: TranscriptionResult, ask: TranscriptionAsk, cost: number): Record<string, unknown> {
  const { usage } = result;
  if (usage.inputTokens === undefined && usage.outputTokens === undefined) return { type: 'duration', seconds: Number(ask.seconds), cost };
  const input = usage.inputTokens ?? 0;
  const output = usage.outputTokens ?? 0;
  return {
    type: 'tokens',
    input_tokens: input,
    ...((usage.inputTextTokens !== undefined || usage.inputAudioTokens !== undefined) && {
      input_token_details: { text_tokens: usage.inputTextTokens ?? 0, audio_tokens: usage.inputAudioTokens ?? 0 },
    }),
    output_tokens: output,
    total_tokens: usage.totalTokens ?? input + output,
    cost,
  };
}
