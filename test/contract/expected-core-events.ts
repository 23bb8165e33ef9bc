import type { UpstreamApi } from '../../src/catalogue/types.js';
import type { CoreEvent, CoreUsage, FinishReason, UpstreamFailure } from '../../src/core/events.js';
import type { CoreRequest } from '../../src/core/request.js';
import { INCOMPLETE_STREAM_MESSAGE } from '../../src/upstream/openai/stream.js';
import { buildPng } from '../../src/sim/png-image.js';
import { buildWav } from '../../src/sim/wav-audio.js';

/**
 * The exact core event sequence each simulator behaviour gives through each upstream wire's
 * adapter, streamed and whole. One sequence per behaviour, written with the builders below; where
 * the wires legitimately differ, the case says so with `pick({openai, anthropic})` and a reason,
 * and the differences every case shares are the wire terms of `WIRE_TERMS`.
 *
 * The simulator numbers its requests and derives reply, call and audio ids from that number; the
 * suite replaces it with `<n>` (`simSequenceNormalised`), since it depends on the order tests run.
 */

export type Wire = Extract<UpstreamApi, 'openai' | 'anthropic'>;

/** What every answer names in its wire's own terms, which the adapters pass on as sent. */
interface WireTerms {
  /** The reply's id, in the wire's own form. */
  replyId: string;
  /** A call's id, in the wire's own form. */
  callId: string;
  /** The raw finish each wire sends for a core finish reason (`finish.raw` is the native reason). */
  raw: Record<'stop' | 'length' | 'tool_calls', string>;
  /** The originating format named on reasoning read from the wire. */
  reasoningFormat: string;
  /** The format named on an opaque reasoning blob, when the wire names one. */
  encryptedFormat: string | undefined;
  /**
   * Streams: the OpenAI wire signs the last thinking fragment; the Anthropic wire sends the
   * signature as a `signature_delta` of its own, read as an empty fragment carrying it.
   */
  signatureApart: boolean;
}

export const WIRE_TERMS: Readonly<Record<Wire, WireTerms>> = {
  openai: {
    replyId: 'chatcmpl-sim<n>',
    callId: 'call_sim<n>',
    raw: { stop: 'stop', length: 'length', tool_calls: 'tool_calls' },
    // Hosted marketplaces mark details whose originating dialect they do not name as `unknown`.
    reasoningFormat: 'unknown',
    // The simulator's `reasoning.encrypted` detail names no format.
    encryptedFormat: undefined,
    signatureApart: false,
  },
  anthropic: {
    replyId: 'msg_sim<n>',
    callId: 'toolu_sim<n>',
    raw: { stop: 'end_turn', length: 'max_tokens', tool_calls: 'tool_use' },
    reasoningFormat: 'anthropic-claude-v1',
    encryptedFormat: 'anthropic-claude-v1',
    signatureApart: true,
  },
};

/** The simulator's answer words, one token each (src/sim/reply-plan.ts). */
const ANSWER = ['Hello', ' from', ' the', ' provider', ' simulator', ',', ' one', ' deterministic', ' token'] as const;

/** Its reasoning words, one token each (src/sim/reasoning-plan.ts). */
const REASONING = ['Let', ' me', ' think'] as const;

/**
 * What the simulator derives from the reasoning text: `sig-` and the first 32 hex digits of its
 * SHA-256 (`Let me think`, `Let me`), and the base64 SHA-256 of `encrypted:Let me think`.
 */
const SIGNATURE = 'sig-7067800ede2a6775aa7fb1b9f76cb608';
const ENCRYPTED = 'DyrwLdoybU/ynF4alPh1hDS4sua2Gnf8IGn/f22lmzY=';
const SIGNATURE_TWO_WORDS = 'sig-fbd05fb03f9ef52774080a0fcf2d0daa';

/** The one-line question every case asks unless it says otherwise. */
export const QUESTION = 'weather in Paris today';

/** The simulator's prompt count: o200k tokens of the text plus 3 per message (4 + 3 here). */
const PROMPT_TOKENS = 7;

/** The simulator's call answers with the first three words the user wrote as `query`, cut as a stream sends it. */
const QUERY_FRAGMENTS = ['{"', 'query', '":"', 'weather', ' in', ' Paris', '"}'] as const;

/** The simulator's pictures and audio, built by the simulator's own encoders. */
export const PNG_2X2 = `data:image/png;base64,${buildPng(2, 2).toString('base64')}`;
const WAV_1MS = buildWav(0.001).toString('base64');

/** The clock the suite pins, so the audio's expiry (an hour after the reply) is fixed. */
export const PINNED_NOW_MS = Date.UTC(2026, 0, 1);
const AUDIO_EXPIRES_AT = PINNED_NOW_MS / 1000 + 3600;

/** The arguments of call `place` (from 1) of several: the query, then the call's place. */
function placedQueryFragments(place: number): string[] {
  return ['{"', 'query', '":"', 'weather', ' in', ' Paris', '","', 'call', '":', String(place), '}'];
}

const REFUSAL = ['I', " can't", ' help', ' with', ' that.'] as const;

const WEATHER = { type: 'function' as const, function: { name: 'weather', parameters: { type: 'object', properties: { query: { type: 'string' } } } } };
const CLOCK = { type: 'function' as const, function: { name: 'clock', parameters: { type: 'object', properties: { query: { type: 'string' } } } } };

/** Builds the expected events of one wire and one mode. */
export class Expect {
  readonly terms: WireTerms;

  /**
   * @param sentBody the body the adapter sent, which the `echo` behaviour answers with
   */
  constructor(readonly wire: Wire, readonly stream: boolean, readonly sentBody: unknown) {
    this.terms = WIRE_TERMS[wire];
  }

  /** A value that differs by wire; the case states why. */
  pick<T>(values: Record<Wire, T>): T {
    return values[this.wire];
  }

  meta(model: string): CoreEvent {
    return { type: 'meta', upstreamId: this.terms.replyId, model };
  }

  /** A text block: one fragment per token streamed, the whole text at once otherwise. */
  text(index: number, tokens: readonly string[]): CoreEvent[] {
    return [{ type: 'text.start', index }, ...this.fragments(tokens).map((text): CoreEvent => ({ type: 'text.delta', index, text })), { type: 'text.end', index }];
  }

  reasoning(index: number, tokens: readonly string[], signature: string): CoreEvent[] {
    const format = this.terms.reasoningFormat;
    const fragments = this.fragments(tokens);
    const last = fragments.length - 1;
    const signedInline = !(this.stream && this.terms.signatureApart);
    const deltas = fragments.map((text, i): CoreEvent => ({
      type: 'reasoning.delta', index, kind: 'text', text, format, ...(signedInline && i === last ? { signature } : {}),
    }));
    if (!signedInline) deltas.push({ type: 'reasoning.delta', index, kind: 'text', text: '', format, signature });
    return [{ type: 'reasoning.start', index, kind: 'text' }, ...deltas, { type: 'reasoning.end', index }];
  }

  encrypted(index: number, data: string): CoreEvent[] {
    const format = this.terms.encryptedFormat;
    return [
      { type: 'reasoning.start', index, kind: 'encrypted' },
      { type: 'reasoning.delta', index, kind: 'encrypted', text: data, ...(format === undefined ? {} : { format }) },
      { type: 'reasoning.end', index },
    ];
  }

  /** Call `toolIndex` of the reply at position `index`; the calls after the first take `_1`, `_2`… on the reply's call id. */
  toolCall(index: number, name: string, fragments: readonly string[], toolIndex = 0): CoreEvent[] {
    const id = toolIndex === 0 ? this.terms.callId : `${this.terms.callId}_${toolIndex}`;
    return [
      { type: 'tool.start', index, toolIndex, id, name },
      ...this.fragments(fragments).map((args): CoreEvent => ({ type: 'tool.delta', index, toolIndex, args })),
      { type: 'tool.end', index, toolIndex },
    ];
  }

  finish(reason: FinishReason & keyof WireTerms['raw']): CoreEvent {
    return { type: 'finish', reason, raw: this.terms.raw[reason] };
  }

  usage(usage: CoreUsage): CoreEvent {
    return { type: 'usage', usage };
  }

  error(failure: UpstreamFailure): CoreEvent {
    return { type: 'error', failure };
  }

  /**
   * A failure from an HTTP error status: the simulator's error body on the wire (OpenAI's
   * `{error: {message, type, param, code}}` or Anthropic's `{type: error, error: {type, message}}`)
   * as `raw`, and its code or type as `providerCode`. Every status but 413 is worth another endpoint.
   */
  httpError(status: number, message: string, extra: Partial<UpstreamFailure> = {}): CoreEvent {
    const openai = OPENAI_ERROR_KINDS[status];
    const anthropic = ANTHROPIC_ERROR_TYPES[status];
    const body = this.wire === 'openai'
      ? { error: { message, type: openai?.type, param: null, code: openai?.code ?? null } }
      : { type: 'error', error: { type: anthropic, message } };
    const providerCode = this.wire === 'openai' ? openai?.code ?? undefined : anthropic;
    return {
      type: 'error',
      failure: { kind: 'http', status, retryable: true, providerMessage: message, raw: JSON.stringify(body), ...(providerCode === undefined ? {} : { providerCode }), ...extra },
    };
  }

  private fragments(tokens: readonly string[]): string[] {
    return this.stream ? [...tokens] : [tokens.join('')];
  }
}

/** The OpenAI error `type` and `code` the simulator sends for the statuses cases use. */
const OPENAI_ERROR_KINDS: Readonly<Record<number, { type: string; code: string | null }>> = {
  400: { type: 'invalid_request_error', code: null },
  429: { type: 'requests', code: 'rate_limit_exceeded' },
  500: { type: 'server_error', code: null },
  503: { type: 'server_error', code: 'service_unavailable' },
};

/** Anthropic's error `type` for the same statuses. */
const ANTHROPIC_ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  429: 'rate_limit_error',
  500: 'api_error',
  503: 'api_error',
};

export interface AdapterCase {
  /** What the case shows; the behaviour it exercises is in `model`. */
  name: string;
  model: string;
  request?: Partial<CoreRequest>;
  /** Wires the behaviour is not spoken on, and why: the simulator refuses it there. */
  skip?: Partial<Record<Wire, string>>;
  /** Why the behaviour is asked of streams only. */
  onlyStreamed?: string;
  /** Why the wires' sequences differ beyond what the agreement check sets aside (ids, formats, raw texts). */
  wiresDiffer?: string;
  expected(x: Expect): CoreEvent[];
}

const NOT_SPOKEN_ON_ANTHROPIC = 'the Anthropic Messages wire has no block for it (the simulator answers 400)';

function plainText(model: string, tokens: number): AdapterCase['expected'] {
  return (x) => [
    x.meta(model),
    ...x.text(0, ANSWER.slice(0, tokens)),
    x.finish('stop'),
    x.usage({ promptTokens: PROMPT_TOKENS, completionTokens: tokens }),
  ];
}

export const ADAPTER_CASES: readonly AdapterCase[] = [
  { name: 'text', model: 'sim;tokens=5', expected: plainText('sim;tokens=5', 5) },
  { name: 'text, paced', model: 'sim;tokens=3;tps=400', expected: plainText('sim;tokens=3;tps=400', 3) },
  { name: 'text after a first-token delay', model: 'sim;tokens=3;ttft=20', expected: plainText('sim;tokens=3;ttft=20', 3) },
  {
    name: 'a ceiling below the answer',
    model: 'sim;tokens=9',
    request: { maxTokens: 4 },
    expected: (x) => [x.meta('sim;tokens=9'), ...x.text(0, ANSWER.slice(0, 4)), x.finish('length'), x.usage({ promptTokens: PROMPT_TOKENS, completionTokens: 4 })],
  },
  {
    name: 'a scripted answer',
    model: 'sim;answer=Bonjour',
    expected: (x) => [x.meta('sim;answer=Bonjour'), ...x.text(0, ['Bonjour']), x.finish('stop'), x.usage({ promptTokens: PROMPT_TOKENS, completionTokens: 1 })],
  },
  {
    name: 'a tool call',
    model: 'sim;tools',
    request: { tools: [WEATHER], toolChoice: 'required' },
    expected: (x) => [
      x.meta('sim;tools'),
      ...x.toolCall(0, 'weather', QUERY_FRAGMENTS),
      x.finish('tool_calls'),
      x.usage({ promptTokens: PROMPT_TOKENS, completionTokens: QUERY_FRAGMENTS.length }),
    ],
  },
  ...parallelToolCallCases(),
  {
    name: 'prose despite tools',
    model: 'sim;tools;prose;tokens=3',
    request: { tools: [WEATHER] },
    expected: plainText('sim;tools;prose;tokens=3', 3),
  },
  {
    name: 'reasoning, signed, then encrypted',
    model: 'sim;reasoning=3;encrypted;tokens=2',
    request: { reasoning: { effort: 'high' }, maxTokens: 4000 },
    expected: (x) => [
      x.meta('sim;reasoning=3;encrypted;tokens=2'),
      ...x.reasoning(0, REASONING, SIGNATURE),
      ...x.encrypted(1, ENCRYPTED),
      ...x.text(2, ANSWER.slice(0, 2)),
      x.finish('stop'),
      x.usage({ promptTokens: PROMPT_TOKENS, completionTokens: 5, reasoningTokens: 3 }),
    ],
  },
  {
    name: 'reasoning, then a tool call',
    model: 'sim;tools;reasoning=2',
    request: { tools: [WEATHER], toolChoice: 'required', reasoning: { effort: 'high' }, maxTokens: 4000 },
    expected: (x) => [
      x.meta('sim;tools;reasoning=2'),
      ...x.reasoning(0, REASONING.slice(0, 2), SIGNATURE_TWO_WORDS),
      ...x.toolCall(1, 'weather', QUERY_FRAGMENTS),
      x.finish('tool_calls'),
      x.usage({ promptTokens: PROMPT_TOKENS, completionTokens: QUERY_FRAGMENTS.length + 2, reasoningTokens: 2 }),
    ],
  },
  { name: 'reasoning turned off', model: 'sim;reasoning=3;tokens=2', request: { reasoning: { effort: 'none' } }, expected: plainText('sim;reasoning=3;tokens=2', 2) },
  {
    name: 'reasoning despite effort none',
    model: 'sim;reasoning=2;reasoning_on_none;tokens=2',
    request: { reasoning: { effort: 'none' } },
    expected: (x) => [
      x.meta('sim;reasoning=2;reasoning_on_none;tokens=2'),
      ...x.reasoning(0, REASONING.slice(0, 2), SIGNATURE_TWO_WORDS),
      ...x.text(1, ANSWER.slice(0, 2)),
      x.finish('stop'),
      x.usage({ promptTokens: PROMPT_TOKENS, completionTokens: 4, reasoningTokens: 2 }),
    ],
  },
  {
    name: 'no usage',
    model: 'sim;no_usage;tokens=2',
    expected: (x) => [x.meta('sim;no_usage;tokens=2'), ...x.text(0, ANSWER.slice(0, 2)), x.finish('stop')],
  },
  {
    name: 'a stop sequence',
    model: 'sim;tokens=9',
    request: { parameters: { stop: [' simulator'] } },
    expected: (x) => [
      x.meta('sim;tokens=9'),
      ...x.text(0, ANSWER.slice(0, 4)),
      // Only the Messages wire names the sequence that matched (stop_reason `stop_sequence`).
      x.pick<CoreEvent>({
        openai: { type: 'finish', reason: 'stop', raw: 'stop' },
        anthropic: { type: 'finish', reason: 'stop', raw: 'stop_sequence', stopSequence: ' simulator' },
      }),
      x.usage({ promptTokens: PROMPT_TOKENS, completionTokens: 4 }),
    ],
  },
  {
    name: 'a picture in the prompt',
    model: 'sim;tokens=3',
    request: {
      messages: [{ role: 'user', content: [{ type: 'text', text: 'what is this' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] }],
    },
    // `what is this` is 3 tokens, plus 3 for the message; the picture counts nothing.
    expected: (x) => [x.meta('sim;tokens=3'), ...x.text(0, ANSWER.slice(0, 3)), x.finish('stop'), x.usage({ promptTokens: 6, completionTokens: 3 })],
  },
  {
    name: 'an input modality the endpoint refuses',
    model: 'sim;refuse_input=image;tokens=3',
    request: {
      messages: [{ role: 'user', content: [{ type: 'text', text: 'what is this' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] }],
    },
    // Each wire words it its own way: OpenAI names the input in `param` and `code`.
    expected: (x) => [x.pick({
      openai: x.httpError(400, 'This model does not accept image input.', {
        providerCode: 'unsupported_input',
        raw: JSON.stringify({ error: { message: 'This model does not accept image input.', type: 'invalid_request_error', param: 'messages', code: 'unsupported_input' } }),
      }),
      anthropic: x.httpError(400, 'messages: This model does not accept image input.'),
    })],
  },
  {
    name: 'an answer that follows the requested schema',
    model: 'sim;follow_schema',
    request: { parameters: { response_format: { type: 'json_schema', json_schema: { name: 'place', schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } } } },
    expected: (x) => [x.meta('sim;follow_schema'), ...x.text(0, ['{"city":"sim"}']), x.finish('stop'), x.usage({ promptTokens: PROMPT_TOKENS, completionTokens: 1 })],
  },
  {
    name: 'cache reads and writes',
    model: 'sim;cached=2;cache_write=1;tokens=2',
    expected: (x) => [
      x.meta('sim;cached=2;cache_write=1;tokens=2'),
      ...x.text(0, ANSWER.slice(0, 2)),
      x.finish('stop'),
      x.usage({ promptTokens: PROMPT_TOKENS, completionTokens: 2, cachedTokens: 2, cacheWriteTokens: 1 }),
    ],
  },
  {
    name: 'a prompt count other than the prompt held',
    model: 'sim;prompt_tokens=500;tokens=2',
    expected: (x) => [
      x.meta('sim;prompt_tokens=500;tokens=2'),
      ...x.text(0, ANSWER.slice(0, 2)),
      x.finish('stop'),
      x.usage({ promptTokens: 500, completionTokens: 2 }),
    ],
  },
  {
    name: 'the request body echoed',
    model: 'sim;echo',
    wiresDiffer: 'each wire echoes its own request body',
    // The answer is the JSON of the body the adapter sent, which is each wire's own.
    expected: (x) => [x.meta('sim;echo'), ...x.text(0, [JSON.stringify(x.sentBody)]), x.finish('stop'), x.usage({ promptTokens: PROMPT_TOKENS, completionTokens: 1 })],
  },
  {
    name: 'a native finish reason passed through',
    model: 'sim;native_finish=eos;tokens=2',
    // An unknown raw reason reads as a normal stop on both wires, and stays as sent.
    expected: (x) => [
      x.meta('sim;native_finish=eos;tokens=2'),
      ...x.text(0, ANSWER.slice(0, 2)),
      { type: 'finish', reason: 'stop', raw: 'eos' },
      x.usage({ promptTokens: PROMPT_TOKENS, completionTokens: 2 }),
    ],
  },
  {
    name: 'log-probabilities of a scripted distribution',
    model: 'sim;top=Oui:0.6,Non:0.4',
    wiresDiffer: 'the Anthropic wire carries no log-probabilities',
    request: { parameters: { logprobs: true, top_logprobs: 2 } },
    expected: (x) => {
      // The Anthropic wire carries no log-probabilities (the adapter does not ask for them).
      const logprobs = x.pick<CoreEvent[]>({
        openai: [{
          type: 'logprobs',
          index: 0,
          tokens: [{ token: 'Oui', logprob: Math.log(0.6), top: [{ token: 'Oui', logprob: Math.log(0.6) }, { token: 'Non', logprob: Math.log(0.4) }] }],
        }],
        anthropic: [],
      });
      const [start, delta, end] = x.text(0, ['Oui']) as [CoreEvent, CoreEvent, CoreEvent];
      return [
        x.meta('sim;top=Oui:0.6,Non:0.4'),
        start,
        delta,
        // Streamed, a token's figures ride on its own chunk, inside the open text block; whole, they follow the text.
        ...(x.stream ? [...logprobs, end] : [end, ...logprobs]),
        x.finish('stop'),
        x.usage({ promptTokens: PROMPT_TOKENS, completionTokens: 1 }),
      ];
    },
  },
  {
    name: 'a label picked for a typed-decision prompt',
    model: 'sim;labels',
    request: { messages: [{ role: 'user', content: 'Is it sunny in Paris?\nAnswer with one of: yes, no, unsure.' }] },
    // The first byte of the prompt's SHA-256 (0x89, 2 mod 3) favours the third label; the prompt is
    // 17 tokens, plus 3 for the message.
    expected: (x) => [x.meta('sim;labels'), ...x.text(0, ['unsure']), x.finish('stop'), x.usage({ promptTokens: 20, completionTokens: 1 })],
  },
  {
    name: 'a refusal',
    model: 'sim;refusal',
    wiresDiffer: 'a refusal is refusal text on the OpenAI wire and text with a content_filter finish on the Anthropic wire',
    expected: (x) => [
      x.meta('sim;refusal'),
      // OpenAI sends `refusal` text and an ordinary stop; Anthropic sends a text block and
      // `stop_reason: refusal`, read as content_filter.
      ...x.pick<CoreEvent[]>({
        openai: [
          { type: 'text.start', index: 0 },
          ...(x.stream ? REFUSAL : [REFUSAL.join('')]).map((text): CoreEvent => ({ type: 'refusal.delta', index: 0, text })),
          { type: 'text.end', index: 0 },
          { type: 'finish', reason: 'stop', raw: 'stop' },
        ],
        anthropic: [...x.text(0, REFUSAL), { type: 'finish', reason: 'content_filter', raw: 'refusal' }],
      }),
      x.usage({ promptTokens: PROMPT_TOKENS, completionTokens: REFUSAL.length }),
    ],
  },
  {
    name: 'a generated picture beside the text',
    model: 'sim;image=2x2;tokens=2',
    skip: { anthropic: NOT_SPOKEN_ON_ANTHROPIC },
    expected: (x) => [
      x.meta('sim;image=2x2;tokens=2'),
      ...x.text(0, ANSWER.slice(0, 2)),
      { type: 'image', index: 1, url: PNG_2X2 },
      x.finish('stop'),
      x.usage({ promptTokens: PROMPT_TOKENS, completionTokens: 2 }),
    ],
  },
  {
    name: 'a picture by URL and no text',
    model: 'sim;image_url=https://img.example/cat.png;image_only',
    skip: { anthropic: NOT_SPOKEN_ON_ANTHROPIC },
    expected: (x) => [
      x.meta('sim;image_url=https://img.example/cat.png;image_only'),
      { type: 'image', index: 0, url: 'https://img.example/cat.png' },
      x.finish('stop'),
      x.usage({ promptTokens: PROMPT_TOKENS, completionTokens: 0 }),
    ],
  },
  {
    name: 'generated audio with its transcript',
    model: 'sim;audio=0.001;tokens=2',
    skip: { anthropic: NOT_SPOKEN_ON_ANTHROPIC },
    expected: (x) => [
      x.meta('sim;audio=0.001;tokens=2'),
      // Streamed, one fragment per answer token, the audio cut at a 4-character boundary and its
      // expiry on the first; whole, one fragment.
      ...(x.stream
        ? [
          { type: 'audio.delta', index: 0, id: 'audio_sim<n>', expiresAt: AUDIO_EXPIRES_AT, data: WAV_1MS.slice(0, 40), transcript: 'Hello' },
          { type: 'audio.delta', index: 0, id: 'audio_sim<n>', data: WAV_1MS.slice(40), transcript: ' from' },
        ] satisfies CoreEvent[]
        : [{ type: 'audio.delta', index: 0, id: 'audio_sim<n>', data: WAV_1MS, transcript: 'Hello from', expiresAt: AUDIO_EXPIRES_AT }] satisfies CoreEvent[]),
      { type: 'audio.end', index: 0 },
      x.finish('stop'),
      x.usage({ promptTokens: PROMPT_TOKENS, completionTokens: 2 }),
    ],
  },
  ...dispatchCases(),
  {
    name: 'an error before the answer',
    model: 'sim;error=503',
    expected: (x) => [x.httpError(503, 'simulated failure 503')],
  },
  {
    name: 'a rate limit with Retry-After',
    model: 'sim;error=429;retry_after=7',
    expected: (x) => [x.httpError(429, 'simulated failure 429', { retryAfter: '7' })],
  },
  {
    name: 'a member the endpoint refuses',
    model: 'sim;refuse_param=temperature',
    request: { parameters: { temperature: 0.3 } },
    // Each wire words it its own way: OpenAI names the member in `param` and `code`.
    expected: (x) => [x.pick({
      openai: x.httpError(400, "Unsupported parameter: 'temperature' is not supported with this model.", {
        providerCode: 'unsupported_parameter',
        raw: JSON.stringify({ error: { message: "Unsupported parameter: 'temperature' is not supported with this model.", type: 'invalid_request_error', param: 'temperature', code: 'unsupported_parameter' } }),
      }),
      anthropic: x.httpError(400, "temperature: Unsupported parameter: 'temperature' is not supported with this model."),
    })],
  },
  {
    name: 'a member the endpoint requires',
    model: 'sim;require_param=temperature',
    expected: (x) => [x.pick({
      openai: x.httpError(400, "Missing required parameter: 'temperature'.", {
        providerCode: 'missing_required_parameter',
        raw: JSON.stringify({ error: { message: "Missing required parameter: 'temperature'.", type: 'invalid_request_error', param: 'temperature', code: 'missing_required_parameter' } }),
      }),
      anthropic: x.httpError(400, "temperature: Missing required parameter: 'temperature'."),
    })],
  },
  {
    name: 'a failure after two chunks',
    model: 'sim;tokens=5;fail_after=2',
    expected: (x) => (x.stream
      ? [
        x.meta('sim;tokens=5;fail_after=2'),
        { type: 'text.start', index: 0 },
        { type: 'text.delta', index: 0, text: 'Hello' },
        { type: 'text.delta', index: 0, text: ' from' },
        // The in-band error is each wire's own: an OpenAI error chunk (its numeric code read as the
        // status) or an Anthropic `error` event (its type read as the status).
        x.error(x.pick<UpstreamFailure>({
          openai: { kind: 'http', status: 500, retryable: true, providerMessage: 'simulated mid-stream failure', providerCode: '500', raw: '{"error":{"message":"simulated mid-stream failure","code":500}}' },
          anthropic: { kind: 'http', status: 500, retryable: true, providerMessage: 'simulated mid-stream failure', providerCode: 'api_error', raw: '{"type":"error","error":{"type":"api_error","message":"simulated mid-stream failure"}}' },
        })),
      ]
      : [x.httpError(500, 'simulated failure 500')]),
  },
  {
    name: 'a disconnect after two chunks',
    model: 'sim;tokens=5;disconnect_after=2',
    expected: (x) => (x.stream
      ? [
        x.meta('sim;tokens=5;disconnect_after=2'),
        { type: 'text.start', index: 0 },
        { type: 'text.delta', index: 0, text: 'Hello' },
        { type: 'text.delta', index: 0, text: ' from' },
        x.error({ kind: 'incomplete', retryable: true, providerMessage: INCOMPLETE_STREAM_MESSAGE }),
      ]
      : [x.error({ kind: 'network', retryable: true, providerMessage: 'Provider unreachable: other side closed' })]),
  },
  {
    name: 'a disconnect before any chunk',
    model: 'sim;tokens=5;disconnect_after=0',
    expected: (x) => [x.stream
      ? x.error({ kind: 'incomplete', retryable: true, providerMessage: INCOMPLETE_STREAM_MESSAGE })
      : x.error({ kind: 'network', retryable: true, providerMessage: 'Provider unreachable: other side closed' })],
  },
  {
    name: 'an unreadable frame after one chunk',
    model: 'sim;tokens=3;malformed',
    expected: (x) => (x.stream
      ? [
        x.meta('sim;tokens=3;malformed'),
        { type: 'text.start', index: 0 },
        { type: 'text.delta', index: 0, text: 'Hello' },
        x.error({ kind: 'protocol', retryable: true, providerMessage: 'Unreadable stream frame from the provider', raw: '{"id": "chatcmpl-broken", "choices": [{"delta": {"content": "unterminated' }),
      ]
      : [x.error({ kind: 'protocol', retryable: true, providerMessage: 'Unreadable reply from the provider' })]),
  },
];

/**
 * Two parallel calls, sent one after the other, or (`interleave`, OpenAI wire) with both headers
 * first and the fragments alternating: the adapter gives the same sequence either way, each call a
 * block of its own with all its fragments between its start and its end, so no dialect can lose
 * one. The Anthropic wire sends its tool_use blocks one after the other in both cases.
 */
function parallelToolCallCases(): AdapterCase[] {
  const shapes = [
    { name: 'parallel tool calls', model: 'sim;tool_calls=2' },
    { name: 'parallel tool calls whose headers come before their arguments', model: 'sim;tool_calls=2;interleave' },
  ];
  return shapes.map(({ name, model }) => ({
    name,
    model,
    request: { tools: [WEATHER, CLOCK], toolChoice: 'required' },
    expected: (x) => [
      x.meta(model),
      ...x.toolCall(0, 'weather', placedQueryFragments(1)),
      ...x.toolCall(1, 'clock', placedQueryFragments(2), 1),
      x.finish('tool_calls'),
      x.usage({ promptTokens: PROMPT_TOKENS, completionTokens: 2 * placedQueryFragments(1).length }),
    ],
  }));
}

/**
 * Call-ready dispatch (OpenAI wire, streams only): the whole call arrives as one `tool.dispatch`
 * after its last argument fragment, whatever the variation sends around it.
 */
function dispatchCases(): AdapterCase[] {
  const call: CoreEvent = { type: 'tool.dispatch', choiceIndex: 0, toolIndex: 0, id: 'call_sim<n>', name: 'weather', arguments: '{"query":"weather in Paris"}' };
  const variations = [
    { name: 'a call-ready dispatch', flag: 'dispatch' },
    { name: 'a dispatch sent twice is read once', flag: 'dispatch_twice' },
    { name: 'a dispatch that is not JSON is ignored', flag: 'dispatch_malformed' },
    { name: 'a dispatch over 64 KiB is ignored', flag: 'dispatch_big' },
  ];
  const cases: AdapterCase[] = variations.map(({ name, flag }) => ({
    name,
    model: `sim;tools;${flag}`,
    request: { tools: [WEATHER], toolChoice: 'required', toolDispatch: true },
    skip: { anthropic: NOT_SPOKEN_ON_ANTHROPIC },
    onlyStreamed: 'dispatch events exist only in streams',
    expected: (x) => [
      x.meta(`sim;tools;${flag}`),
      { type: 'tool.start', index: 0, toolIndex: 0, id: 'call_sim<n>', name: 'weather' },
      ...QUERY_FRAGMENTS.map((args): CoreEvent => ({ type: 'tool.delta', index: 0, toolIndex: 0, args })),
      call,
      { type: 'tool.end', index: 0, toolIndex: 0 },
      x.finish('tool_calls'),
      x.usage({ promptTokens: PROMPT_TOKENS, completionTokens: QUERY_FRAGMENTS.length }),
    ],
  }));
  cases.push({
    name: 'a failure after the dispatch',
    model: 'sim;tools;fail_after_dispatch',
    request: { tools: [WEATHER], toolChoice: 'required', toolDispatch: true },
    skip: { anthropic: NOT_SPOKEN_ON_ANTHROPIC },
    onlyStreamed: 'dispatch events exist only in streams',
    expected: (x) => [
      x.meta('sim;tools;fail_after_dispatch'),
      { type: 'tool.start', index: 0, toolIndex: 0, id: 'call_sim<n>', name: 'weather' },
      ...QUERY_FRAGMENTS.map((args): CoreEvent => ({ type: 'tool.delta', index: 0, toolIndex: 0, args })),
      call,
      x.error({ kind: 'http', status: 500, retryable: true, providerMessage: 'simulated mid-stream failure', providerCode: '500', raw: '{"error":{"message":"simulated mid-stream failure","code":500}}' }),
    ],
  });
  return cases;
}
