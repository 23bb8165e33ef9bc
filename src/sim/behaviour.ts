/**
 * Simulator behaviours, chosen by the upstream model name (`chat;tps=200;ttft=50`) and by
 * `[[sim key=value flag]]` directives in the last user message (directives win). Keys:
 *
 * - `tokens=N`          completion tokens (default 12), capped by max_tokens / max_completion_tokens
 *                       (then finish_reason `length`)
 * - `tps=N`             stream pacing in tokens per second; non-streamed replies wait the whole
 *                       generation time instead
 * - `ttft=MS`           delay before the first token (streams) or the reply / error (non-streamed)
 * - `tools`             one call to the named tool_choice, else the first tool, else `lookup`
 * - `prose`             text even when `tools` is set
 * - `echo`              the reply text is the JSON of the request body (one token)
 * - `no_usage`          no usage in the body and no usage chunk
 * - `error=STATUS`      that status and an OpenAI error body before any byte of answer;
 *                       `retry_after=S` adds Retry-After
 * - `fail_after=N`      streams: N content chunks, then an in-band error frame, then the end
 * - `disconnect_after=N` streams: N content chunks, then the socket is destroyed (0 = no chunk)
 * - `malformed[=N]`     streams: a non-JSON frame after N content chunks (default 1)
 * - `refuse_param=NAME` 400 naming NAME when the body has that member
 *
 * Non-streamed requests turn the stream-only failures into their whole-reply counterparts:
 * `disconnect_after` drops the connection, `fail_after` answers 500, `malformed` a non-JSON body.
 * An unknown key or a bad value is answered with 400 naming it.
 */
export interface SimBehaviour {
  /** Completion tokens to produce before `max_tokens` caps them. */
  tokens: number;
  /** Stream pacing in tokens per second; undefined = as fast as possible. */
  tps: number | undefined;
  /** Delay before the first token (streams) or the reply (non-streamed). */
  ttftMs: number | undefined;
  tools: boolean;
  prose: boolean;
  echo: boolean;
  usage: boolean;
  errorStatus: number | undefined;
  retryAfter: string | undefined;
  failAfter: number | undefined;
  disconnectAfter: number | undefined;
  /** Content chunks sent before the non-JSON frame; undefined = no such frame. */
  malformedAfter: number | undefined;
  refuseParam: string | undefined;
}

export const DEFAULT_COMPLETION_TOKENS = 12;

type Setter = (behaviour: SimBehaviour, value: string | undefined) => string | undefined;

const COUNT = /^\d+$/;
const DECIMAL = /^\d+(\.\d+)?$/;

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

const SETTERS = {
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
  refuse_param: (b, v) => {
    if (!v) return 'refuse_param needs a parameter name';
    b.refuseParam = v;
    return undefined;
  },
  tools: (b, v) => flag('tools', v, () => { b.tools = true; }),
  prose: (b, v) => flag('prose', v, () => { b.prose = true; }),
  echo: (b, v) => flag('echo', v, () => { b.echo = true; }),
  no_usage: (b, v) => flag('no_usage', v, () => { b.usage = false; }),
} as const satisfies Record<string, Setter>;

function isKnownKey(key: string): key is keyof typeof SETTERS {
  return Object.hasOwn(SETTERS, key);
}

export function defaultBehaviour(): SimBehaviour {
  return {
    tokens: DEFAULT_COMPLETION_TOKENS, tps: undefined, ttftMs: undefined, tools: false, prose: false,
    echo: false, usage: true, errorStatus: undefined, retryAfter: undefined, failAfter: undefined,
    disconnectAfter: undefined, malformedAfter: undefined, refuseParam: undefined,
  };
}

/** Applies `key` / `key=value` items in order; returns the first problem, if any. */
export function applyBehaviourItems(behaviour: SimBehaviour, items: readonly string[]): string | undefined {
  for (const item of items) {
    if (item === '') continue;
    const eq = item.indexOf('=');
    const key = eq < 0 ? item : item.slice(0, eq);
    const value = eq < 0 ? undefined : item.slice(eq + 1);
    if (!isKnownKey(key)) return `unknown simulator behaviour "${key}"`;
    const problem = SETTERS[key](behaviour, value);
    if (problem) return `simulator behaviour ${problem}`;
  }
  return undefined;
}

const DIRECTIVE = /\[\[sim\b([^\]]*)\]\]/g;

/** The items of every `[[sim …]]` directive in a text, in order. */
export function directiveItems(text: string): string[] {
  const items: string[] = [];
  for (const match of text.matchAll(DIRECTIVE)) {
    items.push(...(match[1] ?? '').trim().split(/\s+/));
  }
  return items;
}

/** Removes `[[sim …]]` directives, so replies quote only what a user would have written. */
export function stripDirectives(text: string): string {
  return text.replace(DIRECTIVE, '');
}

export type BehaviourResult = { ok: true; behaviour: SimBehaviour } | { ok: false; problem: string };

export function resolveBehaviour(model: string, lastUserText: string): BehaviourResult {
  const behaviour = defaultBehaviour();
  const problem = applyBehaviourItems(behaviour, model.split(';').slice(1))
    ?? (lastUserText.includes('[[sim') ? applyBehaviourItems(behaviour, directiveItems(lastUserText)) : undefined);
  return problem ? { ok: false, problem } : { ok: true, behaviour };
}
