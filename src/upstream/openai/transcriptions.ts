import { AUDIO_CONTAINER_TYPES } from '../../core/audio-container.js';
import type { PlannedAttempt } from '../../core/plan.js';
import {
  needsTimedSegments,
  primaryLanguage,
  type TranscriptionAsk,
  type TranscriptionResult,
  type TranscriptionUsage,
  type TranscriptSegment,
  type TranscriptWord,
} from '../../core/transcription.js';
import { bearerJsonHeaders } from '../bearer-headers.js';
import { countOf, isPlainObject, objectOf, stringOf } from '../json-guards.js';
import { notServedFailure, unreadableReply, type OperationAdapter, type OperationReply } from '../operation-adapter.js';
import type { UpstreamRequest } from '../types.js';
import { decodeOpenAiHttpError } from './error.js';

/**
 * Transcription over OpenAI's `/audio/transcriptions` (Whisper and gpt-4o-transcribe style, and the
 * servers that copy them): a multipart form with the recording as `file`, named for its container
 * (the provider reads the format from the name). The endpoint always answers in JSON: `json`, or
 * `verbose_json` where captions or timestamps need its timed segments; the dialect renders text and
 * captions from that, so the reply's usage is read whatever the caller asked for.
 */
export const openAiTranscriptionsAdapter: OperationAdapter<TranscriptionAsk, TranscriptionResult> = {
  buildRequest: buildTranscriptionRequest,
  decodeReply: decodeTranscriptionReply,
  decodeError: (status, bodyText, headers) => notServedFailure('transcription', status, bodyText) ?? decodeOpenAiHttpError(status, bodyText, headers),
};

function buildTranscriptionRequest(ask: TranscriptionAsk, attempt: PlannedAttempt): UpstreamRequest {
  const { endpoint } = attempt;
  // provider options go first: the reply is decoded as the format asked for here, whatever they say
  const body: Record<string, unknown> = { ...attempt.options, model: endpoint.upstreamModel, response_format: needsTimedSegments(ask) ? 'verbose_json' : 'json' };
  // the wire takes ISO-639-1 codes: a regional tag (pt-BR) routed by its language is sent as that language
  if (ask.language !== undefined) body.language = primaryLanguage(ask.language);
  if (ask.prompt !== undefined) body.prompt = ask.prompt;
  if (ask.temperature !== undefined) body.temperature = ask.temperature;
  if (ask.granularities.length > 0) body['timestamp_granularities[]'] = ask.granularities;
  return {
    path: '/audio/transcriptions',
    headers: bearerJsonHeaders(endpoint.provider),
    body,
    upload: { field: 'file', filename: `audio.${ask.container}`, mediaType: AUDIO_CONTAINER_TYPES[ask.container], bytes: ask.audio },
  };
}

/** A reply must carry the transcript's text, and timed segments wherever captions were asked; anything else fails this endpoint. */
function decodeTranscriptionReply(json: unknown, ask: TranscriptionAsk): OperationReply<TranscriptionResult> {
  if (!isPlainObject(json)) return unreadableReply('transcription', json);
  const text = stringOf(json.text);
  if (text === undefined) return unreadableReply('transcription', json);
  const result: TranscriptionResult = { text, usage: usageOf(objectOf(json.usage)) };
  const language = stringOf(json.language);
  if (language !== undefined) result.language = language;
  if (typeof json.duration === 'number' && Number.isFinite(json.duration) && json.duration >= 0) result.duration = json.duration;
  const segments = timedList(json.segments, isSegment);
  const words = timedList(json.words, isWord);
  if (segments === null || words === null) return unreadableReply('transcription', json);
  if (segments) result.segments = segments;
  if (words) result.words = words;
  if ((ask.format === 'srt' || ask.format === 'vtt') && !segments) return unreadableReply('transcription with timed segments', json);
  const upstreamId = stringOf(json.id);
  if (upstreamId) result.upstreamId = upstreamId;
  return { ok: true, result };
}

/** The list when every item is timed as it should be; undefined when absent; null when malformed. */
function timedList<T>(value: unknown, check: (item: unknown) => item is T): T[] | undefined | null {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) return null;
  return value.every(check) ? value : null;
}

function isTimed(item: unknown): item is { start: number; end: number } & Record<string, unknown> {
  return isPlainObject(item) && typeof item.start === 'number' && typeof item.end === 'number' && Number.isFinite(item.start) && Number.isFinite(item.end);
}

function isSegment(item: unknown): item is TranscriptSegment {
  return isTimed(item) && typeof item.text === 'string';
}

function isWord(item: unknown): item is TranscriptWord {
  return isTimed(item) && typeof item.word === 'string';
}

/** `{type: duration, seconds}` or `{type: tokens, input_tokens, input_token_details, output_tokens, total_tokens}`. */
function usageOf(usage: Record<string, unknown> | undefined): TranscriptionUsage {
  const read: TranscriptionUsage = {};
  if (typeof usage?.seconds === 'number' && Number.isFinite(usage.seconds) && usage.seconds >= 0) read.seconds = usage.seconds;
  const details = objectOf(usage?.input_token_details);
  const counts: [keyof TranscriptionUsage, unknown][] = [
    ['inputTokens', usage?.input_tokens],
    ['inputTextTokens', details?.text_tokens],
    ['inputAudioTokens', details?.audio_tokens],
    ['outputTokens', usage?.output_tokens],
    ['totalTokens', usage?.total_tokens],
  ];
  for (const [name, value] of counts) {
    const count = countOf(value);
    if (count !== undefined) read[name] = count;
  }
  return read;
}
