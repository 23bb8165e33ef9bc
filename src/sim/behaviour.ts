import { isKnownKey, SETTERS } from './behaviour-keys.js';

export type { DispatchBehaviour, ImageBehaviour, SimBehaviour } from './sim-behaviour.js';
import type { SimBehaviour } from './sim-behaviour.js';

export const DEFAULT_COMPLETION_TOKENS = 12;

export function defaultBehaviour(): SimBehaviour {
  return {
    tokens: DEFAULT_COMPLETION_TOKENS, tps: undefined, ttftMs: undefined, tools: false, toolCalls: 1,
    interleave: false, prose: false,
    echo: false, usage: true, errorStatus: undefined, retryAfter: undefined, failAfter: undefined,
    disconnectAfter: undefined, malformedAfter: undefined, refuseParam: undefined, requireParam: undefined,
    refuseInput: undefined, followSchema: false,
    reasoning: undefined, reasoningOnNone: false, encrypted: false, image: undefined, imageOnly: false,
    audioSeconds: undefined, promptTokens: undefined, cached: undefined, cacheWrite: undefined, dispatch: undefined, refusal: false,
    nativeFinish: undefined, answer: undefined, top: undefined, labels: false,
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
    ?? (lastUserText.includes('[[sim') ? applyBehaviourItems(behaviour, directiveItems(lastUserText)) : undefined)
    ?? (behaviour.imageOnly && !behaviour.image ? 'simulator behaviour image_only needs image or image_url' : undefined);
  return problem ? { ok: false, problem } : { ok: true, behaviour };
}
