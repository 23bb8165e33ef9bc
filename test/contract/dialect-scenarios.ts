import type { CoreEvent, UpstreamFailure } from '../../src/core/events.js';
import { INCOMPLETE_STREAM_MESSAGE, OpenAiStreamDecoder } from '../../src/upstream/openai/stream.js';
import { buildPng } from '../../src/sim/png-image.js';
import { buildWav } from '../../src/sim/wav-audio.js';

/**
 * Scripted answers for the golden dialect suite: core event sequences shaped as the upstream
 * adapters emit them (the block tracker's start/delta/end, positions numbered in reply order,
 * `finish` then `usage`), each turned by every dialect encoder into golden SSE and JSON files.
 */
export interface DialectScenario {
  /** The golden file's name. */
  name: string;
  events: CoreEvent[];
  /**
   * Why the scenario has no whole-reply golden: a non-streamed answer that fails is failed over or
   * answered with an HTTP error, so no reply encoder runs. Undefined: both goldens exist.
   */
  streamOnly?: string;
}

/** The upstream's own reply id and model, as the first event of every answer names them. */
const META: CoreEvent = { type: 'meta', upstreamId: 'chatcmpl-upstream-7', model: 'claude-x' };

const USAGE: CoreEvent = { type: 'usage', usage: { promptTokens: 31, completionTokens: 9 } };

function text(index: number, fragments: readonly string[]): CoreEvent[] {
  return [
    { type: 'text.start', index },
    ...fragments.map((fragment): CoreEvent => ({ type: 'text.delta', index, text: fragment })),
    { type: 'text.end', index },
  ];
}

function toolCall(index: number, toolIndex: number, call: { id: string; name: string; fragments: readonly string[] }): CoreEvent[] {
  return [
    { type: 'tool.start', index, toolIndex, id: call.id, name: call.name },
    ...call.fragments.map((args): CoreEvent => ({ type: 'tool.delta', index, toolIndex, args })),
    { type: 'tool.end', index, toolIndex },
  ];
}

/** A real 2×2 PNG, so the answer meter measures it as the runner's would. */
const PICTURE_URL = `data:image/png;base64,${buildPng(2, 2).toString('base64')}`;

/** A real WAV (1 ms of silence), cut in two at a 4-character boundary as a stream delivers it. */
const WAV_BASE64 = buildWav(0.001).toString('base64');
const WAV_HALF = Math.ceil(WAV_BASE64.length / 8) * 4;

const MID_STREAM_FAILURE: UpstreamFailure = {
  kind: 'http',
  status: 500,
  retryable: true,
  providerMessage: 'simulated mid-stream failure',
  providerCode: '500',
  raw: '{"error":{"message":"simulated mid-stream failure","code":500}}',
};

/** The events the OpenAI-compatible stream decoder reads from chunks carrying `deltas`, then the finish and usage. */
function decodedOpenAiStream(deltas: readonly Record<string, unknown>[], finish: string, usage: Record<string, number>): CoreEvent[] {
  const decoder = new OpenAiStreamDecoder();
  const chunk = (body: Record<string, unknown>) => JSON.stringify({ id: 'chatcmpl-upstream-7', model: 'claude-x', ...body });
  return [
    ...deltas.flatMap((delta) => decoder.frame(chunk({ choices: [{ index: 0, delta, finish_reason: null }] }))),
    ...decoder.frame(chunk({ choices: [{ index: 0, delta: {}, finish_reason: finish }] })),
    ...decoder.frame(chunk({ choices: [], usage })),
    ...decoder.frame('[DONE]'),
    ...decoder.end(),
  ];
}

const FAILED_ANSWER = 'failing after commit: every failure in a non-streamed answer is failed over or an HTTP error';

export const DIALECT_SCENARIOS: readonly DialectScenario[] = [
  {
    name: 'plain-text',
    events: [META, ...text(0, ['The weather', ' in Paris', ' is mild.']), { type: 'finish', reason: 'stop', raw: 'stop' }, USAGE],
  },
  {
    name: 'reasoning',
    events: [
      META,
      { type: 'reasoning.start', index: 0, kind: 'text' },
      { type: 'reasoning.delta', index: 0, kind: 'text', text: 'The user asks', format: 'unknown' },
      { type: 'reasoning.delta', index: 0, kind: 'text', text: ' about Paris.', signature: 'sig-0f9e8d7c', format: 'unknown' },
      { type: 'reasoning.end', index: 0 },
      { type: 'reasoning.start', index: 1, kind: 'summary' },
      { type: 'reasoning.delta', index: 1, kind: 'summary', text: 'Looked up the forecast.', format: 'openai-responses-v1' },
      { type: 'reasoning.end', index: 1 },
      { type: 'reasoning.start', index: 2, kind: 'encrypted' },
      { type: 'reasoning.delta', index: 2, kind: 'encrypted', text: 'ZW5jcnlwdGVkLXJlYXNvbmluZw==', format: 'openai-responses-v1' },
      { type: 'reasoning.end', index: 2 },
      ...text(3, ['Mild,', ' 18 °C.']),
      { type: 'finish', reason: 'stop', raw: 'stop' },
      { type: 'usage', usage: { promptTokens: 31, completionTokens: 40, reasoningTokens: 36 } },
    ],
  },
  {
    name: 'tool-calls',
    events: [
      META,
      ...toolCall(0, 0, { id: 'call_weather_1', name: 'get_weather', fragments: ['{"city":', '"Paris"}'] }),
      ...toolCall(1, 1, { id: 'call_time_2', name: 'get_time', fragments: ['{"zone":', '"Asia/', 'Tokyo"}'] }),
      { type: 'finish', reason: 'tool_calls', raw: 'tool_calls' },
      { type: 'usage', usage: { promptTokens: 31, completionTokens: 22 } },
    ],
  },
  {
    // Parallel calls whose headers arrive before their arguments (call 0 header, call 1 header,
    // call 0 arguments, call 1 arguments), as the OpenAI-compatible adapter turns them into events:
    // read from those very chunks, so the scenario is what the adapter emits.
    name: 'tool-calls-interleaved',
    events: decodedOpenAiStream([
      { role: 'assistant', tool_calls: [{ index: 0, id: 'call_weather_1', type: 'function', function: { name: 'get_weather', arguments: '' } }] },
      { tool_calls: [{ index: 1, id: 'call_time_2', type: 'function', function: { name: 'get_time', arguments: '' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '{"city":"Paris"}' } }] },
      { tool_calls: [{ index: 1, function: { arguments: '{"zone":"Asia/Tokyo"}' } }] },
    ], 'tool_calls', { prompt_tokens: 31, completion_tokens: 22 }),
  },
  {
    name: 'text-then-tool-call',
    events: [
      META,
      ...text(0, ['Let me', ' check.']),
      ...toolCall(1, 0, { id: 'toolu_weather_1', name: 'get_weather', fragments: ['{"city":', '"Paris"}'] }),
      { type: 'finish', reason: 'tool_calls', raw: 'tool_use' },
      { type: 'usage', usage: { promptTokens: 31, completionTokens: 14 } },
    ],
  },
  {
    name: 'picture',
    events: [
      META,
      ...text(0, ['Here is the sketch.']),
      { type: 'image', index: 1, url: PICTURE_URL },
      { type: 'finish', reason: 'stop', raw: 'stop' },
      USAGE,
    ],
  },
  {
    name: 'audio',
    events: [
      META,
      { type: 'audio.delta', index: 0, id: 'audio_golden_1', expiresAt: 1767229200, data: WAV_BASE64.slice(0, WAV_HALF), transcript: 'Hello' },
      { type: 'audio.delta', index: 0, id: 'audio_golden_1', data: WAV_BASE64.slice(WAV_HALF), transcript: ' there.' },
      { type: 'audio.end', index: 0 },
      { type: 'finish', reason: 'stop', raw: 'stop' },
      USAGE,
    ],
  },
  {
    name: 'usage-unreported',
    events: [META, ...text(0, ['The weather', ' in Paris', ' is mild.']), { type: 'finish', reason: 'stop', raw: 'stop' }],
  },
  {
    name: 'ceiling',
    events: [META, ...text(0, ['The weather', ' in']), { type: 'finish', reason: 'length', raw: 'length' }, { type: 'usage', usage: { promptTokens: 31, completionTokens: 2 } }],
  },
  {
    // The OpenAI-compatible wire's refusal: `refusal` fragments in a text position, an ordinary finish.
    name: 'refusal',
    events: [
      META,
      { type: 'text.start', index: 0 },
      { type: 'refusal.delta', index: 0, text: "I can't" },
      { type: 'refusal.delta', index: 0, text: ' help with that.' },
      { type: 'text.end', index: 0 },
      { type: 'finish', reason: 'stop', raw: 'stop' },
      { type: 'usage', usage: { promptTokens: 31, completionTokens: 5 } },
    ],
  },
  {
    // The Anthropic wire's refusal: plain text, then `stop_reason: refusal` read as content_filter.
    name: 'content-filter',
    events: [
      META,
      ...text(0, ["I can't", ' help with that.']),
      { type: 'finish', reason: 'content_filter', raw: 'refusal' },
      { type: 'usage', usage: { promptTokens: 31, completionTokens: 5 } },
    ],
  },
  {
    name: 'in-band-error',
    events: [META, ...text(0, ['The weather', ' in']).slice(0, -1), { type: 'error', failure: MID_STREAM_FAILURE }],
    streamOnly: FAILED_ANSWER,
  },
  {
    // The upstream closed after part of the answer without a finish: the adapter's `incomplete` failure.
    name: 'cut-stream',
    events: [
      META,
      ...text(0, ['The weather', ' in']).slice(0, -1),
      { type: 'error', failure: { kind: 'incomplete', retryable: true, providerMessage: INCOMPLETE_STREAM_MESSAGE } },
    ],
    streamOnly: FAILED_ANSWER,
  },
];
