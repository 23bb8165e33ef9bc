import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { resolveBehaviour } from './behaviour.js';
import type { ParsedBody } from './chat-route.js';
import { sendError } from './json-reply.js';
import { isPlainObject } from '../core/plain-object.js';
import { encodeSilence, isSimSpeechCodec, SIM_SPEECH_CODECS } from './speech-audio.js';

/** Seconds of audio per input character, before speed. */
const SECONDS_PER_CHARACTER = 0.05;
const MIN_SECONDS = 0.2;
const MAX_SECONDS = 30;
/** The reply body is written in this many pieces (fewer for a tiny body). */
const CHUNKS = 4;

const CONTENT_TYPES = { mp3: 'audio/mpeg', wav: 'audio/wav', pcm: 'audio/pcm', mulaw: 'audio/basic', alaw: 'audio/x-alaw-basic' } as const;

/**
 * `POST /v1/audio/speech`, OpenAI-compatible: `{model, input, voice?, response_format? (mp3),
 * speed?, input_references?}` → silence in the asked codec, as long as the input asks
 * (0.05 s a character, 0.2 s to 30 s, divided by speed), written in 4 pieces without a length.
 * Behaviours from the model name and `[[sim …]]` directives in the input: `error=STATUS` before any
 * byte, `ttft=MS` before the headers, `tps=N` pieces per second, `fail_after=N` pieces then the
 * connection is dropped. Codecs it cannot produce validly (opus, flac, aac) are refused with 400.
 */
export async function handleSpeech(res: ServerResponse, parsed: ParsedBody): Promise<void> {
  if (!parsed.ok || !isPlainObject(parsed.value)) return sendError(res, 400, 'We could not parse the JSON body of your request.');
  const body = parsed.value;
  const { model, input } = body;
  if (typeof model !== 'string' || model === '') return sendError(res, 400, 'you must provide a model parameter', { param: 'model' });
  if (typeof input !== 'string' || input === '') return sendError(res, 400, "Missing required parameter: 'input'.", { param: 'input' });
  const format = body.response_format ?? 'mp3';
  if (!isSimSpeechCodec(format)) {
    return sendError(res, 400, `Unsupported response_format; supported: ${SIM_SPEECH_CODECS.join(', ')}`, { param: 'response_format' });
  }
  if (body.input_references !== undefined && !validReferences(body.input_references)) {
    return sendError(res, 400, 'input_references must hold one input_audio sample with base64 data', { param: 'input_references' });
  }
  const resolved = resolveBehaviour(model, input);
  if (!resolved.ok) return sendError(res, 400, resolved.problem, { param: 'model', code: 'invalid_simulator_behaviour' });
  const behaviour = resolved.behaviour;
  if (behaviour.ttftMs) await sleep(behaviour.ttftMs);
  if (res.destroyed) return;
  if (behaviour.errorStatus !== undefined) return sendError(res, behaviour.errorStatus, `simulated failure ${behaviour.errorStatus}`);
  const speed = typeof body.speed === 'number' && body.speed > 0 ? body.speed : 1;
  const seconds = Math.min(MAX_SECONDS, Math.max(MIN_SECONDS, [...input].length * SECONDS_PER_CHARACTER)) / speed;
  const audio = encodeSilence(format, seconds);
  await writePieces(res, audio, { contentType: CONTENT_TYPES[format], failAfter: behaviour.failAfter, piecesPerSecond: behaviour.tps });
}

function validReferences(value: unknown): boolean {
  if (!Array.isArray(value) || value.length !== 1) return false;
  const reference: unknown = value[0];
  if (!isPlainObject(reference) || reference.type !== 'input_audio' || !isPlainObject(reference.input_audio)) return false;
  const data = reference.input_audio.data;
  return typeof data === 'string' && data.length > 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(data);
}

interface PieceOptions {
  contentType: string;
  failAfter: number | undefined;
  piecesPerSecond: number | undefined;
}

async function writePieces(res: ServerResponse, audio: Buffer, options: PieceOptions): Promise<void> {
  res.writeHead(200, { 'content-type': options.contentType, 'transfer-encoding': 'chunked' });
  const size = Math.ceil(audio.length / CHUNKS);
  for (let piece = 0; piece * size < audio.length; piece += 1) {
    if (options.failAfter !== undefined && piece >= options.failAfter) {
      res.destroy();
      return;
    }
    if (piece > 0 && options.piecesPerSecond) await sleep(1000 / options.piecesPerSecond);
    if (res.destroyed) return;
    await new Promise<void>((resolve) => res.write(audio.subarray(piece * size, (piece + 1) * size), () => resolve()));
  }
  res.end();
}
