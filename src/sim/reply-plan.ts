import type { SimBehaviour } from './behaviour.js';
import { stripDirectives } from './behaviour.js';
import { isRecord, lastUserText, messageList } from './message-text.js';
import { countPromptTokens } from './prompt-tokens.js';

export type FinishReason = 'stop' | 'length' | 'tool_calls';

export interface ToolCallPlan {
  id: string;
  name: string;
  arguments: string;
  /** The arguments split into the fragments a stream sends, one per chunk. */
  fragments: string[];
}

/** Everything a reply says, decided once and rendered as a JSON body or a stream. */
export interface ReplyPlan {
  /** Content tokens, one per streamed chunk; empty for a tool call. */
  content: string[];
  toolCall: ToolCallPlan | undefined;
  finishReason: FinishReason;
  promptTokens: number;
  completionTokens: number;
}

const WORDS = [
  'Hello', ' from', ' the', ' provider', ' simulator', ',', ' one', ' deterministic',
  ' token', ' at', ' a', ' time', '.',
] as const;

/** Token i of the reply text: the word list, cycled, with a space before each new round. */
export function replyToken(i: number): string {
  const position = i % WORDS.length;
  const word = WORDS[position] ?? '';
  return i > 0 && position === 0 ? ` ${word}` : word;
}

function completionCap(body: Record<string, unknown>): number | undefined {
  for (const value of [body.max_completion_tokens, body.max_tokens]) {
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  }
  return undefined;
}

function functionName(value: unknown): string | undefined {
  if (!isRecord(value) || !isRecord(value.function)) return undefined;
  const name = value.function.name;
  return typeof name === 'string' && name !== '' ? name : undefined;
}

/** The named `tool_choice` function, else the first declared tool, else `lookup`. */
function chosenToolName(body: Record<string, unknown>): string {
  const tools = Array.isArray(body.tools) ? body.tools : [];
  return functionName(body.tool_choice) ?? functionName(tools[0]) ?? 'lookup';
}

const FRAGMENT = / ?[\p{L}\p{N}_]+|[^\p{L}\p{N}_\s]+|\s+/gu;

function planToolCall(body: Record<string, unknown>, userText: string, id: string): ToolCallPlan {
  const query = stripDirectives(userText).trim().split(/\s+/).slice(0, 3).join(' ');
  const args = JSON.stringify({ query });
  return { id, name: chosenToolName(body), arguments: args, fragments: args.match(FRAGMENT) ?? [args] };
}

export interface PlanInput {
  body: Record<string, unknown>;
  behaviour: SimBehaviour;
  toolCallId: string;
}

export function planReply({ body, behaviour, toolCallId }: PlanInput): ReplyPlan {
  const messages = messageList(body);
  const promptTokens = countPromptTokens(messages);
  if (behaviour.echo) {
    return { content: [JSON.stringify(body)], toolCall: undefined, finishReason: 'stop', promptTokens, completionTokens: 1 };
  }
  if (behaviour.tools && !behaviour.prose) {
    const toolCall = planToolCall(body, lastUserText(messages), toolCallId);
    return { content: [], toolCall, finishReason: 'tool_calls', promptTokens, completionTokens: toolCall.fragments.length };
  }
  const cap = completionCap(body);
  const produced = cap !== undefined && cap < behaviour.tokens ? cap : behaviour.tokens;
  const content = Array.from({ length: produced }, (_, i) => replyToken(i));
  const finishReason: FinishReason = produced < behaviour.tokens ? 'length' : 'stop';
  return { content, toolCall: undefined, finishReason, promptTokens, completionTokens: produced };
}
