import { detectAudioContainer, type AudioContainer } from '../../core/audio-container.js';
import type { DecodedOperation } from '../../core/decoded-operation.js';
import { GatewayError, invalidRequest } from '../../core/errors.js';
import type { TranscriptionRoute } from '../../core/operation.js';
import { TokenEstimator } from '../../core/token-estimate.js';
import { needsTimedSegments, TRANSCRIPTION_UPLOAD_BYTES, type TimestampGranularity, type TranscriptFormat, type TranscriptionAsk } from '../../core/transcription.js';
import { readSessionHeader, type HeaderBag } from '../shared/request-headers.js';
import { singleCallRequest } from '../shared/single-call-request.js';
import type { TranscriptionRequestBody } from './schema.js';
import { UploadedAudio } from './uploaded-audio.js';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

interface Recording {
  audio: Buffer;
  container: AudioContainer;
  field: string;
}

/**
 * POST /audio/transcriptions → the routing request (the recording's container as an audio input
 * part, the language, whether timed segments are needed), the planner's facts and the core ask.
 * The recording is a form's `file` or `input_audio` (raw base64 whose bytes agree with the format
 * named), never both, at most 25 MiB, in a container read from its first bytes. Its seconds are read
 * before routing (the operation's `measure`).
 */
export function decodeTranscriptionRequest(body: TranscriptionRequestBody, headers: HeaderBag): DecodedOperation<TranscriptionAsk> {
  const { audio, container, field } = readRecording(body);
  const format = (body.response_format ?? 'json') as TranscriptFormat;
  const granularities = (body.timestamp_granularities ?? []) as TimestampGranularity[];
  if (granularities.length > 0 && format !== 'verbose_json') {
    throw invalidRequest('timestamp_granularities', `needs response_format verbose_json (not ${format})`);
  }
  const ask: TranscriptionAsk = { audio, container, field, format, granularities: [...granularities] };
  if (body.language !== undefined) ask.language = body.language;
  if (body.prompt !== undefined) ask.prompt = body.prompt;
  if (body.temperature !== undefined) ask.temperature = body.temperature;
  if (body.user !== undefined) ask.user = body.user;
  const route: TranscriptionRoute = { kind: 'transcription', timed: needsTimedSegments(ask) };
  if (ask.language !== undefined) route.language = ask.language;
  const request = singleCallRequest(body, headers, { operation: route });
  const session = body.session_id ?? readSessionHeader(headers);
  if (session !== undefined) request.sessionId = session;
  const promptTokens = new TokenEstimator().count(body.prompt ?? '');
  return {
    request,
    facts: { promptTokens, messageTokens: [], toolTokens: 0, inputs: [{ modality: 'audio', source: 'base64', container }], windowTokens: promptTokens },
    ask,
  };
}

function readRecording(body: TranscriptionRequestBody): Recording {
  if (body.file !== undefined && body.input_audio !== undefined) throw invalidRequest('input_audio', 'send the recording once: as a form\'s file or as input_audio');
  if (body.file !== undefined) {
    if (!(body.file instanceof UploadedAudio)) throw invalidRequest('file', 'only a multipart form carries a file; a JSON body sends input_audio');
    return recordingOf(body.file.bytes, 'file');
  }
  if (body.input_audio === undefined) throw invalidRequest('file', 'required: the recording, as a multipart form\'s file or as input_audio {data, format}');
  const field = 'input_audio.data';
  const { data, format } = body.input_audio;
  if (data.startsWith('data:')) throw invalidRequest(field, 'must be raw base64, without a data-URL prefix');
  if (data.length % 4 !== 0 || !BASE64.test(data)) throw invalidRequest(field, 'must be base64');
  if ((data.length / 4) * 3 - 2 > TRANSCRIPTION_UPLOAD_BYTES) throw recordingTooLarge(field);
  const recording = recordingOf(Buffer.from(data, 'base64'), field);
  if (recording.container !== format) throw invalidRequest('input_audio.format', `the recording is ${recording.container}, not ${format}`);
  return recording;
}

function recordingOf(audio: Buffer, field: string): Recording {
  if (audio.length > TRANSCRIPTION_UPLOAD_BYTES) throw recordingTooLarge(field);
  if (audio.length === 0) throw invalidRequest(field, 'is empty');
  const container = detectAudioContainer(audio);
  if (!container) throw invalidRequest(field, 'is not a WAV, MP3, FLAC, OGG, M4A or WebM recording');
  return { audio, container, field };
}

export function recordingTooLarge(field: string): GatewayError {
  return new GatewayError('payload_too_large', `${field}: the recording is larger than ${TRANSCRIPTION_UPLOAD_BYTES / 1024 / 1024} MiB`, { metadata: { field } });
}
