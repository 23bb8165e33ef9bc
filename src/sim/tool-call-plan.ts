import { stripDirectives } from './behaviour.js';
import { isPlainObject } from '../core/plain-object.js';

export interface ToolCallPlan {
  id: string;
  name: string;
  arguments: string;
  /** The arguments split into the fragments a stream sends, one per chunk. */
  fragments: string[];
}

function functionName(value: unknown): string | undefined {
  if (!isPlainObject(value) || !isPlainObject(value.function)) return undefined;
  const name = value.function.name;
  return typeof name === 'string' && name !== '' ? name : undefined;
}

/** Call `position`'s tool: the named `tool_choice` function, else the declared tools in turn, else `lookup`. */
function chosenToolName(body: Record<string, unknown>, position: number): string {
  const tools = Array.isArray(body.tools) ? body.tools : [];
  return functionName(body.tool_choice) ?? (tools.length > 0 ? functionName(tools[position % tools.length]) : undefined) ?? 'lookup';
}

/** A `tool_choice` that binds the model to call one of the declared tools (`required`, a named function). */
export function forcesToolCall(body: Record<string, unknown>): boolean {
  const declared = Array.isArray(body.tools) && body.tools.length > 0;
  return declared && (body.tool_choice === 'required' || functionName(body.tool_choice) !== undefined);
}

const FRAGMENT = / ?[\p{L}\p{N}_]+|[^\p{L}\p{N}_\s]+|\s+/gu;

/** The id of call `position` of a reply: the reply's call id, then `_1`, `_2`… for the calls after the first. */
export function toolCallId(base: string, position: number): string {
  return position === 0 ? base : `${base}_${position}`;
}

/**
 * `count` calls whose `query` argument is the first three words the user wrote; where there are
 * several, each also carries its place (`call`: 1, 2, …) so their arguments differ.
 */
export function planToolCalls(body: Record<string, unknown>, userText: string, idBase: string, count: number): ToolCallPlan[] {
  const query = stripDirectives(userText).trim().split(/\s+/).slice(0, 3).join(' ');
  return Array.from({ length: count }, (_, position) => {
    const args = JSON.stringify(count === 1 ? { query } : { query, call: position + 1 });
    return { id: toolCallId(idBase, position), name: chosenToolName(body, position), arguments: args, fragments: args.match(FRAGMENT) ?? [args] };
  });
}
