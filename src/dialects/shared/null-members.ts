import { isPlainObject } from '../../core/plain-object.js';

/** Members whose contents are the caller's own documents (schemas, opaque maps): never rewritten. */
const OPAQUE_MEMBERS = new Set(['metadata', 'response_format', 'tools', 'logit_bias', 'text', 'state', 'questions', 'documents']);

/**
 * An optional member sent as an explicit `null` reads as if it were left out (spec 01). Null members
 * are removed at the top level, inside top-level option objects (provider, reasoning, …) and inside
 * each message or input item, before the schema sees the body. Caller documents are left untouched.
 */
export function dropNullMembers(body: unknown): unknown {
  if (!isPlainObject(body)) return body;
  for (const [key, value] of Object.entries(body)) {
    if (value === null) delete body[key];
    else if (OPAQUE_MEMBERS.has(key)) continue;
    else if (Array.isArray(value)) value.forEach(dropOwnNulls);
    else dropOwnNulls(value);
  }
  return body;
}

function dropOwnNulls(value: unknown): void {
  if (!isPlainObject(value)) return;
  for (const key of Object.keys(value)) {
    if (value[key] === null) delete value[key];
  }
}
