import type { DispatchBehaviour, SimBehaviour } from './sim-behaviour.js';

/** Applies one key's value; returns a problem description when the value is unusable. */
type Setter = (behaviour: SimBehaviour, value: string | undefined) => string | undefined;

const COUNT = /^\d+$/;
const DECIMAL = /^\d+(\.\d+)?$/;
const IMAGE_SIZE = /^(\d+)x(\d+)$/;

export const MAX_IMAGE_SIDE = 4096;
export const MAX_AUDIO_SECONDS = 60;
export const MAX_TOOL_CALLS = 16;

function count(key: string, value: string | undefined, apply: (n: number) => void): string | undefined {
  if (value === undefined || !COUNT.test(value)) return `${key} needs a whole number, got ${value ?? 'nothing'}`;
  apply(Number(value));
  return undefined;
}

function flag(key: string, value: string | undefined, apply: () => void): string | undefined {
  if (value !== undefined) return `${key} takes no value`;
  apply();
  return undefined;
}

function named(key: string, value: string | undefined, apply: (name: string) => void): string | undefined {
  if (!value) return `${key} needs a name`;
  apply(value);
  return undefined;
}

function imageSize(b: SimBehaviour, v: string | undefined): string | undefined {
  const match = v === undefined ? null : IMAGE_SIZE.exec(v);
  const width = Number(match?.[1]);
  const height = Number(match?.[2]);
  const fits = (side: number): boolean => side >= 1 && side <= MAX_IMAGE_SIDE;
  if (!match || !fits(width) || !fits(height)) {
    return `image needs WIDTHxHEIGHT, each from 1 to ${MAX_IMAGE_SIDE}, got ${v ?? 'nothing'}`;
  }
  b.image = { kind: 'png', width, height };
  return undefined;
}

function imageUrl(b: SimBehaviour, v: string | undefined): string | undefined {
  if (v === undefined || !URL.canParse(v) || new URL(v).protocol !== 'https:') {
    return `image_url needs an https URL, got ${v ?? 'nothing'}`;
  }
  b.image = { kind: 'url', url: v };
  return undefined;
}

function audioSeconds(b: SimBehaviour, v: string | undefined): string | undefined {
  if (v === undefined || !DECIMAL.test(v) || Number(v) > MAX_AUDIO_SECONDS) {
    return `audio needs seconds from 0 to ${MAX_AUDIO_SECONDS}, got ${v ?? 'nothing'}`;
  }
  b.audioSeconds = Number(v);
  return undefined;
}

const TOP_ENTRY = /^([^:,]+):(\d+(?:\.\d+)?)$/;

/** `top=T:P,T:P`: tokens with probabilities in (0, 1]. */
function topAlternatives(b: SimBehaviour, v: string | undefined): string | undefined {
  const entries = (v ?? '').split(',').map((item) => TOP_ENTRY.exec(item));
  const read = entries.map((match) => ({ token: match?.[1] ?? '', probability: Number(match?.[2]) }));
  if (v === undefined || read.some((item) => item.token === '' || !(item.probability > 0 && item.probability <= 1))) {
    return `top needs TOKEN:PROBABILITY items separated by commas, each probability in (0, 1], got ${v ?? 'nothing'}`;
  }
  b.top = read;
  return undefined;
}

/** A dispatch flag: turns dispatch on and sets one of its variations. */
function dispatchFlag(key: string, apply: (dispatch: DispatchBehaviour) => void): Setter {
  return (b, v) => flag(key, v, () => {
    b.dispatch ??= { twice: false, malformed: false, big: false, failAfter: false };
    apply(b.dispatch);
  });
}

export const SETTERS = {
  tokens: (b, v) => count('tokens', v, (n) => { b.tokens = n; }),
  ttft: (b, v) => count('ttft', v, (n) => { b.ttftMs = n; }),
  fail_after: (b, v) => count('fail_after', v, (n) => { b.failAfter = n; }),
  disconnect_after: (b, v) => count('disconnect_after', v, (n) => { b.disconnectAfter = n; }),
  malformed: (b, v) => {
    if (v !== undefined) return count('malformed', v, (n) => { b.malformedAfter = n; });
    b.malformedAfter = 1;
    return undefined;
  },
  tps: (b, v) => {
    if (v === undefined || !DECIMAL.test(v) || Number(v) <= 0) return `tps needs a positive number, got ${v ?? 'nothing'}`;
    b.tps = Number(v);
    return undefined;
  },
  error: (b, v) => {
    if (v === undefined || !COUNT.test(v) || Number(v) < 400 || Number(v) > 599) return `error needs a status from 400 to 599, got ${v ?? 'nothing'}`;
    b.errorStatus = Number(v);
    return undefined;
  },
  retry_after: (b, v) => count('retry_after', v, () => { b.retryAfter = v; }),
  refuse_param: (b, v) => named('refuse_param', v, (name) => { b.refuseParam = name; }),
  require_param: (b, v) => named('require_param', v, (name) => { b.requireParam = name; }),
  refuse_input: (b, v) => named('refuse_input', v, (modality) => { b.refuseInput = modality; }),
  follow_schema: (b, v) => flag('follow_schema', v, () => { b.followSchema = true; }),
  tools: (b, v) => flag('tools', v, () => { b.tools = true; }),
  tool_calls: (b, v) => {
    if (v === undefined || !COUNT.test(v) || Number(v) < 1 || Number(v) > MAX_TOOL_CALLS) return `tool_calls needs a count from 1 to ${MAX_TOOL_CALLS}, got ${v ?? 'nothing'}`;
    b.tools = true;
    b.toolCalls = Number(v);
    return undefined;
  },
  interleave: (b, v) => flag('interleave', v, () => { b.interleave = true; }),
  prose: (b, v) => flag('prose', v, () => { b.prose = true; }),
  echo: (b, v) => flag('echo', v, () => { b.echo = true; }),
  no_usage: (b, v) => flag('no_usage', v, () => { b.usage = false; }),
  reasoning: (b, v) => count('reasoning', v, (n) => { b.reasoning = n; }),
  reasoning_on_none: (b, v) => flag('reasoning_on_none', v, () => { b.reasoningOnNone = true; }),
  encrypted: (b, v) => flag('encrypted', v, () => { b.encrypted = true; }),
  image: imageSize,
  image_url: imageUrl,
  image_only: (b, v) => flag('image_only', v, () => { b.imageOnly = true; }),
  audio: audioSeconds,
  prompt_tokens: (b, v) => count('prompt_tokens', v, (n) => { b.promptTokens = n; }),
  cached: (b, v) => count('cached', v, (n) => { b.cached = n; }),
  cache_write: (b, v) => count('cache_write', v, (n) => { b.cacheWrite = n; }),
  dispatch: dispatchFlag('dispatch', () => undefined),
  dispatch_twice: dispatchFlag('dispatch_twice', (d) => { d.twice = true; }),
  dispatch_malformed: dispatchFlag('dispatch_malformed', (d) => { d.malformed = true; }),
  dispatch_big: dispatchFlag('dispatch_big', (d) => { d.big = true; }),
  fail_after_dispatch: dispatchFlag('fail_after_dispatch', (d) => { d.failAfter = true; }),
  refusal: (b, v) => flag('refusal', v, () => { b.refusal = true; }),
  native_finish: (b, v) => named('native_finish', v, (raw) => { b.nativeFinish = raw; }),
  answer: (b, v) => named('answer', v, (text) => { b.answer = text; }),
  top: topAlternatives,
  labels: (b, v) => flag('labels', v, () => { b.labels = true; }),
} as const satisfies Record<string, Setter>;

export function isKnownKey(key: string): key is keyof typeof SETTERS {
  return Object.hasOwn(SETTERS, key);
}
