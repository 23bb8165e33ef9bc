import { invalidRequest } from '../../core/errors.js';

/**
 * How deeply a request body may nest objects and arrays; the body itself is level 1. Generous for any
 * real tool schema or metadata, and low enough that nothing reading the body (schema checks, token
 * estimates, records, replies) can run out of stack.
 */
export const MAX_BODY_DEPTH = 128;

/** Path segments shown before a too-deep path is cut short. */
const SHOWN_SEGMENTS = 6;

interface Frame {
  value: object;
  depth: number;
  key: string | undefined;
  parent: Frame | undefined;
}

/**
 * Refuses (400 naming the path) a body nesting deeper than the limit. Walks with its own stack, never
 * by recursion, so a body of any depth is judged without exhausting the call stack.
 */
export function assertBodyDepth(body: unknown, limit = MAX_BODY_DEPTH): void {
  if (typeof body !== 'object' || body === null) return;
  const pending: Frame[] = [{ value: body, depth: 1, key: undefined, parent: undefined }];
  for (let frame = pending.pop(); frame !== undefined; frame = pending.pop()) {
    for (const key of Object.keys(frame.value)) {
      const child: unknown = (frame.value as Record<string, unknown>)[key];
      if (typeof child !== 'object' || child === null) continue;
      const next: Frame = { value: child, depth: frame.depth + 1, key, parent: frame };
      if (next.depth > limit) {
        const field = abbreviatedPath(next);
        throw invalidRequest(field, `nested deeper than ${limit} levels`);
      }
      pending.push(next);
    }
  }
}

/** `metadata.a.a.a.a.a…` for a frame nested below the body: the first segments, then an ellipsis. */
function abbreviatedPath(frame: Frame): string {
  const keys: string[] = [];
  for (let at: Frame | undefined = frame; at?.key !== undefined; at = at.parent) keys.push(at.key);
  keys.reverse();
  const shown = keys
    .slice(0, SHOWN_SEGMENTS)
    .map((key, position) => (/^\d+$/.test(key) ? `[${key}]` : position === 0 ? key : `.${key}`))
    .join('');
  return keys.length > SHOWN_SEGMENTS ? `${shown}…` : shown;
}
