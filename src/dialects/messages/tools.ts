import { invalidRequest } from '../../core/errors.js';
import type { ToolChoice, ToolDefinition } from '../../core/request.js';
import type { MessagesTool, MessagesToolChoice } from './tool-schema.js';

/** A hosted web-search type: `web_search_` followed by a date (`web_search_20250305`). */
const DATED_WEB_SEARCH = /^web_search_\d{4}-?\d{2}-?\d{2}$/;

/**
 * `tools` of the messages dialect → function tools. The service runs no web search and executes no
 * tools, so a hosted web-search entry is refused naming its position, and so is any other typed
 * hosted tool; a search the client performs is its own function tool. A custom tool is untyped,
 * `type: "custom"` or `type: null`; `strict` travels with it, `defer_loading` and
 * `eager_input_streaming` are accepted and not forwarded (every tool is declared up front).
 */
export function decodeTools(tools: readonly MessagesTool[]): ToolDefinition[] {
  return tools.map((tool, position) => {
    const field = `tools[${position}]`;
    const type = tool.type ?? 'custom';
    if (DATED_WEB_SEARCH.test(type)) {
      throw invalidRequest(field, `hosted web search (${type}) is not supported: the service runs no web search; `
        + 'declare a function tool and perform the search yourself');
    }
    if (type !== 'custom') {
      throw invalidRequest(`${field}.type`, `hosted tool type ${JSON.stringify(type)} is not supported; only custom (function) tools`);
    }
    if (tool.input_schema === undefined) throw invalidRequest(`${field}.input_schema`, 'is required');
    const definition: ToolDefinition = { type: 'function', function: { name: tool.name, parameters: tool.input_schema } };
    if (tool.description !== undefined) definition.function.description = tool.description;
    if (tool.strict !== undefined) definition.function.strict = tool.strict;
    return definition;
  });
}

/** `tool_choice` → the core's choice: `any` requires a call, `tool` names the function to call. */
export function decodeToolChoice(choice: MessagesToolChoice): ToolChoice {
  switch (choice.type) {
    case 'auto':
      return 'auto';
    case 'any':
      return 'required';
    case 'none':
      return 'none';
    case 'tool':
      return { type: 'function', function: { name: choice.name } };
  }
}

/** `disable_parallel_tool_use: true` asks for at most one call per turn. */
export function disablesParallelCalls(choice: MessagesToolChoice | undefined): boolean {
  return choice !== undefined && choice.type !== 'none' && choice.disable_parallel_tool_use === true;
}
