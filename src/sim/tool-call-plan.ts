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

/** The named `tool_choice` function, else the first declared tool, else `lookup`. */
function chosenToolName(body: Record<string, unknown>): string {
  const tools = Array.isArray(body.tools) ? body.tools : [];
  return functionName(body.tool_choice) ?? functionName(tools[0]) ?? 'lookup';
}

/** A `tool_choice` that binds the model to call one of the declared tools (`required`, a named function). */
export function forcesToolCall(body: Record<string, unknown>): boolean {
  const declared = Array.isArray(body.tools) && body.tools.length > 0;
  return declared && (body.tool_choice === 'required' || functionName(body.tool_choice) !== undefined);
}

const FRAGMENT = / ?[\p{L}\p{N}_]+|[^\p{L}\p{N}_\s]+|\s+/gu;

/** One call whose `query` argument is the first three words the user wrote. */
export function planToolCall(body: Record<string, unknown>, userText: string, id: string): ToolCallPlan {
  const query = stripDirectives(userText).trim().split(/\s+/).slice(0, 3).join(' ');
  const args = JSON.stringify({ query });
  return { id, name: chosenToolName(body), arguments: args, fragments: args.match(FRAGMENT) ?? [args] };
}
