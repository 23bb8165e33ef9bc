import { isPlainObject } from '../core/plain-object.js';

/**
 * An Anthropic Messages request read into the chat-shaped body the shared planners take
 * (reply-plan, tool-call-plan, reasoning-plan), so both wires answer a request the same way:
 * `system` becomes a system message, `tool_result` blocks become tool messages, tools and a
 * named `tool_choice` take the function shape (`any` is `required`), `stop_sequences` is `stop`, and thinking that is not enabled reads as
 * `reasoning_effort: "none"`. Requests the real API refuses are refused with its wording.
 */
export type PlanningBody = { ok: true; body: Record<string, unknown> } | { ok: false; problem: string };

const IMAGE_MEDIA_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
const MIN_THINKING_BUDGET = 1024;

type Problem = string | undefined;

export function planningBody(body: Record<string, unknown>): PlanningBody {
  const maxTokens = body.max_tokens;
  if (!Number.isInteger(maxTokens) || (maxTokens as number) < 1) return { ok: false, problem: 'max_tokens: Field required (an integer of at least 1)' };
  if (!Array.isArray(body.messages) || body.messages.length === 0) return { ok: false, problem: 'messages: at least one message is required' };
  const messages: unknown[] = [];
  const system = systemText(body.system);
  if (system === undefined) return { ok: false, problem: 'system: must be a string or an array of text blocks' };
  if (system !== '') messages.push({ role: 'system', content: system });
  for (const [position, message] of body.messages.entries()) {
    const problem = readMessage(message, `messages.${position}`, messages);
    if (problem) return { ok: false, problem };
  }
  const problem = thinkingProblem(body.thinking, maxTokens as number);
  if (problem) return { ok: false, problem };
  const planning: Record<string, unknown> = { model: body.model, max_tokens: maxTokens, messages };
  if (Array.isArray(body.tools)) planning.tools = body.tools.map((tool) => ({ type: 'function', function: { name: isPlainObject(tool) ? tool.name : undefined } }));
  if (isPlainObject(body.tool_choice) && body.tool_choice.type === 'tool') planning.tool_choice = { type: 'function', function: { name: body.tool_choice.name } };
  if (isPlainObject(body.tool_choice) && body.tool_choice.type === 'any') planning.tool_choice = 'required';
  if (!thinkingOn(body.thinking)) planning.reasoning_effort = 'none';
  if (Array.isArray(body.stop_sequences)) planning.stop = body.stop_sequences;
  // structured outputs: `output_config.format: {type: json_schema, schema}` is the chat wire's `response_format`
  const format = isPlainObject(body.output_config) ? body.output_config.format : undefined;
  if (isPlainObject(format) && format.type === 'json_schema') {
    planning.response_format = { type: 'json_schema', json_schema: { name: 'output', schema: format.schema } };
  }
  return { ok: true, body: planning };
}

function systemText(system: unknown): string | undefined {
  if (system === undefined) return '';
  if (typeof system === 'string') return system;
  if (!Array.isArray(system)) return undefined;
  let text = '';
  for (const block of system) {
    if (!isPlainObject(block) || block.type !== 'text' || typeof block.text !== 'string') return undefined;
    text += block.text;
  }
  return text;
}

function thinkingOn(thinking: unknown): boolean {
  return isPlainObject(thinking) && (thinking.type === 'enabled' || thinking.type === 'adaptive');
}

function thinkingProblem(thinking: unknown, maxTokens: number): Problem {
  if (thinking === undefined) return undefined;
  if (!isPlainObject(thinking) || !['enabled', 'disabled', 'adaptive'].includes(String(thinking.type))) return 'thinking.type: must be enabled, disabled or adaptive';
  if (thinking.type !== 'enabled') return undefined;
  const budget = thinking.budget_tokens;
  if (!Number.isInteger(budget) || (budget as number) < MIN_THINKING_BUDGET) return `thinking.enabled.budget_tokens: Input should be greater than or equal to ${MIN_THINKING_BUDGET}`;
  if ((budget as number) >= maxTokens) return '`max_tokens` must be greater than `thinking.budget_tokens`';
  return undefined;
}

/** Appends the chat-shaped messages one Anthropic message stands for. */
function readMessage(message: unknown, path: string, out: unknown[]): Problem {
  if (!isPlainObject(message) || (message.role !== 'user' && message.role !== 'assistant')) return `${path}.role: must be user or assistant`;
  const { content } = message;
  if (typeof content === 'string') {
    out.push({ role: message.role, content });
    return undefined;
  }
  if (!Array.isArray(content)) return `${path}.content: must be a string or an array of blocks`;
  const parts: unknown[] = [];
  for (const [position, block] of content.entries()) {
    const blockPath = `${path}.content.${position}`;
    if (!isPlainObject(block)) return `${blockPath}: must be a content block`;
    if (block.type === 'tool_result') {
      if (typeof block.tool_use_id !== 'string') return `${blockPath}.tool_use_id: Field required`;
      out.push({ role: 'tool', tool_call_id: block.tool_use_id, content: resultText(block.content) });
      continue;
    }
    const problem = block.type === 'image' ? imageProblem(block.source, `${blockPath}.image.source`) : undefined;
    if (problem) return problem;
    if (block.type === 'text' && typeof block.text === 'string') parts.push({ type: 'text', text: block.text });
  }
  if (parts.length > 0 || !content.some((block) => isPlainObject(block) && block.type === 'tool_result')) out.push({ role: message.role, content: parts });
  return undefined;
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((block) => (isPlainObject(block) && block.type === 'text' && typeof block.text === 'string' ? block.text : '')).join('');
}

function imageProblem(source: unknown, path: string): Problem {
  if (!isPlainObject(source)) return `${path}: Field required`;
  if (source.type === 'url') return typeof source.url === 'string' && /^https?:\/\//.test(source.url) ? undefined : `${path}.url: must be an http(s) URL`;
  if (source.type !== 'base64') return `${path}.type: must be base64 or url`;
  if (typeof source.media_type !== 'string' || !IMAGE_MEDIA_TYPES.has(source.media_type)) {
    return `${path}.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`;
  }
  if (typeof source.data !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(source.data)) return `${path}.base64.data: must be base64`;
  return undefined;
}
