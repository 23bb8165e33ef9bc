import { invalidRequest } from '../../core/errors.js';
import type { ToolChoice, ToolDefinition } from '../../core/request.js';

/** Where a dialect writes the parts of its `tool_choice` (chat nests the name under `function`). */
export interface ToolChoiceFields {
  /** The member that asks for a call (`tool_choice`, or `tool_choice.type` where the value is an object). */
  required: string;
  /** The member that names the function. */
  name: string;
}

/**
 * A `tool_choice` must be satisfiable by the request's own tools: `required` needs at least one
 * function tool and a named function must be one of them. Refused 400 before any provider is asked,
 * rather than failing the tool-call contract at every endpoint.
 */
export function checkToolChoice(choice: ToolChoice | undefined, tools: readonly ToolDefinition[] | undefined, fields: ToolChoiceFields): void {
  if (choice === undefined || choice === 'auto' || choice === 'none') return;
  const declared = tools ?? [];
  if (choice === 'required') {
    if (declared.length === 0) throw invalidRequest(fields.required, 'asks for a tool call but tools declares no function');
    return;
  }
  const name = choice.function.name;
  if (!declared.some((tool) => tool.function.name === name)) {
    throw invalidRequest(fields.name, `names function ${JSON.stringify(name)}, which tools does not declare`);
  }
}
