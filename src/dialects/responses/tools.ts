import { invalidRequest } from '../../core/errors.js';
import type { ToolChoice, ToolDefinition, ToolOrigin } from '../../core/request.js';
import { isItem, type Item } from './content-blocks.js';
import type { ResponsesRequestBody } from './schema.js';

const NAME = /^[a-zA-Z0-9_-]{1,128}$/;
/** Joins a namespace and a function name into the one flat name an endpoint sees. */
const NAMESPACE_SEPARATOR = '__';

/** Flat upstream names of namespaced functions, and the way back. */
export class ToolNames {
  readonly origins: Record<string, ToolOrigin> = {};

  upstreamName(name: string, namespace?: string): string {
    return namespace === undefined ? name : `${namespace}${NAMESPACE_SEPARATOR}${name}`;
  }

  remember(flat: string, origin: ToolOrigin): void {
    this.origins[flat] = origin;
  }
}

export interface ReadTools {
  tools?: ToolDefinition[];
  toolChoice?: ToolChoice;
}

/**
 * `tools` as flat function definitions: functions inside a namespace are expanded under a flat
 * name (`namespace__name`) and remembered, so returned calls carry their namespace again; built-in
 * tool types (web search, local shell, …) and custom tools are dropped, since the service runs none.
 */
export function readTools(body: ResponsesRequestBody, names: ToolNames): ReadTools {
  const tools: ToolDefinition[] = [];
  const seen = new Set<string>();
  const add = (definition: ToolDefinition, field: string) => {
    if (seen.has(definition.function.name)) throw invalidRequest(field, `declares function ${definition.function.name} twice`);
    seen.add(definition.function.name);
    tools.push(definition);
  };
  (body.tools ?? []).forEach((declared, index) => {
    const tool: Item = declared;
    const field = `tools[${index}]`;
    if (tool.type === 'function') add(readFunction(tool, field, undefined, names), field);
    if (tool.type !== 'namespace') return;
    const namespace = checkedName(tool.name, `${field}.name`);
    const members: unknown[] = Array.isArray(tool.tools) ? tool.tools : [];
    members.forEach((member, position) => {
      const memberField = `${field}.tools[${position}]`;
      if (isItem(member) && member.type === 'function') add(readFunction(member, memberField, namespace, names), memberField);
    });
  });
  const read: ReadTools = {};
  if (tools.length > 0) read.tools = tools;
  const choice = readToolChoice(body.tool_choice, seen, names);
  if (choice !== undefined) read.toolChoice = choice;
  return read;
}

function readFunction(tool: Item, field: string, namespace: string | undefined, names: ToolNames): ToolDefinition {
  const name = checkedName(tool.name, `${field}.name`);
  const flat = names.upstreamName(name, namespace);
  if (!NAME.test(flat)) throw invalidRequest(`${field}.name`, `namespace and name together must match [a-zA-Z0-9_-]{1,128} (${flat})`);
  if (namespace !== undefined) names.remember(flat, { namespace, name });
  const definition: ToolDefinition = { type: 'function', function: { name: flat } };
  if (typeof tool.description === 'string') definition.function.description = tool.description;
  if (tool.parameters !== undefined && tool.parameters !== null) {
    if (!isItem(tool.parameters)) throw invalidRequest(`${field}.parameters`, 'must be a JSON Schema object');
    definition.function.parameters = tool.parameters;
  }
  if (typeof tool.strict === 'boolean') definition.function.strict = tool.strict;
  return definition;
}

function checkedName(value: unknown, field: string): string {
  if (typeof value !== 'string' || !NAME.test(value)) throw invalidRequest(field, 'must match [a-zA-Z0-9_-]{1,128}');
  return value;
}

/** A named choice must name a declared function; with no function left, only auto and none make sense. */
function readToolChoice(choice: ResponsesRequestBody['tool_choice'], declared: ReadonlySet<string>, names: ToolNames): ToolChoice | undefined {
  if (choice === undefined) return undefined;
  if (typeof choice === 'string') {
    if (declared.size > 0) return choice;
    if (choice === 'required') throw invalidRequest('tool_choice', '"required" needs at least one function tool');
    return undefined;
  }
  const flat = names.upstreamName(choice.name, choice.namespace);
  if (!declared.has(flat)) throw invalidRequest('tool_choice.name', `names no declared function (${flat})`);
  return { type: 'function', function: { name: flat } };
}
