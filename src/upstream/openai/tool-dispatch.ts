import type { CoreEvent } from '../../core/events.js';
import { countOf, isPlainObject, objectOf, parseJson, stringOf } from '../json-guards.js';

/** Dispatch payloads over this size are ignored (spec 01 limits). */
export const MAX_DISPATCH_BYTES = 64 * 1024;

/**
 * Reads call-ready `tool_call_dispatch` frames. A payload that is malformed, partial (arguments
 * that are not complete JSON) or over 64 KiB is ignored; a second frame for the same call
 * (choice index, tool index and id) is suppressed.
 */
export class ToolDispatchReader {
  private readonly seen = new Set<string>();

  read(data: string): CoreEvent | undefined {
    if (Buffer.byteLength(data, 'utf8') > MAX_DISPATCH_BYTES) return undefined;
    const payload = objectOf(parseJson(data));
    const call = objectOf(payload?.tool_call);
    const fn = objectOf(call?.function);
    const choiceIndex = countOf(payload?.choice_index);
    const toolIndex = countOf(call?.index);
    const id = stringOf(call?.id);
    const name = stringOf(fn?.name);
    const args = stringOf(fn?.arguments);
    if (choiceIndex === undefined || toolIndex === undefined || !id || !name || args === undefined) return undefined;
    if (call?.type !== 'function' || !isCompleteJson(args)) return undefined;
    const identity = `${choiceIndex}:${toolIndex}:${id}`;
    if (this.seen.has(identity)) return undefined;
    this.seen.add(identity);
    return { type: 'tool.dispatch', choiceIndex, toolIndex, id, name, arguments: args };
  }
}

function isCompleteJson(text: string): boolean {
  const parsed = parseJson(text);
  return parsed !== undefined && isPlainObject(parsed);
}
