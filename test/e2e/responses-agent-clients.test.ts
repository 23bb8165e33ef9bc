import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResponseCreateParamsStreaming, ResponseFunctionToolCall } from 'openai/resources/responses/responses';
import { startHarness, type Harness } from './harness.js';

/** Codex (CLI 0.169) as it calls the responses route through a custom provider with `wire_api = "responses"`. */
let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [{ id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=3', supported_parameters: ['max_tokens', 'tools', 'tool_choice', 'parallel_tool_calls'] }] }],
  });
});

afterAll(async () => harness.close());

const OBJECT = { type: 'object', properties: { target: { type: 'string' } }, required: ['target'], additionalProperties: false };

/** The tools Codex declares: flat functions (`strict: false`), a namespace of sub-agent functions, its hosted web search. */
const CODEX_TOOLS = [
  { type: 'function', name: 'exec_command', description: 'Runs a command in a PTY.', strict: false, parameters: { ...OBJECT, properties: { cmd: { type: 'string' } }, required: ['cmd'] } },
  {
    type: 'namespace',
    name: 'multi_agent_v1',
    description: 'Tools for spawning and managing sub-agents.',
    tools: [{ type: 'function', name: 'close_agent', description: 'Close an agent.', strict: false, parameters: OBJECT }],
  },
  { type: 'web_search', external_web_access: false },
];

const SESSION = '01a20b19-e098-7b31-9dad-7e6187ae0927';

/** Codex's second turn: developer and user messages with ids, its calls sent back with status, id and namespace, their outputs. */
function codexTurn(lastUserText: string): ResponseCreateParamsStreaming {
  const turn = {
    model: 'acme/chat',
    stream: true,
    input: [
      { type: 'message', id: 'msg_5d7b558b', role: 'developer', content: [{ type: 'input_text', text: 'You are a coding agent running in the Codex CLI.' }] },
      { type: 'message', id: 'msg_01a20b19', role: 'user', content: [{ type: 'input_text', text: '<environment_context>\n  <cwd>/work</cwd>\n</environment_context>' }] },
      { type: 'message', id: 'msg_01a20b1a', role: 'user', content: [{ type: 'input_text', text: 'Close the helper' }] },
      { type: 'function_call', status: 'completed', id: 'fc_prev_0', name: 'exec_command', arguments: '{"cmd":"ls"}', call_id: 'call_1' },
      { type: 'function_call', status: 'completed', id: 'fc_prev_1', name: 'close_agent', namespace: 'multi_agent_v1', arguments: '{"target":"a1"}', call_id: 'call_2' },
      { type: 'function_call_output', id: 'fco_1', call_id: 'call_1', output: 'README.md' },
      { type: 'function_call_output', id: 'fco_2', call_id: 'call_2', output: 'closed' },
      { type: 'message', id: 'msg_01a20b1b', role: 'user', content: [{ type: 'input_text', text: lastUserText }] },
    ],
    tools: CODEX_TOOLS,
    tool_choice: 'auto',
    parallel_tool_calls: true,
    reasoning: { summary: 'auto' },
    store: false,
    include: ['reasoning.encrypted_content'],
    prompt_cache_key: SESSION,
    client_metadata: { session_id: SESSION, turn_id: '01a20b19-e0da' },
  };
  return turn as unknown as ResponseCreateParamsStreaming;
}

function lastUpstream(): { headers: Record<string, string>; body: Record<string, unknown> } {
  const request = harness.sim.requests().at(-1);
  return { headers: request?.headers ?? {}, body: request?.body as Record<string, unknown> };
}

describe("a Codex turn (developer messages, calls sent back with namespace and status, hosted web search, reasoning summary, client_metadata)", () => {
  it('streams the answer to the official client: output_text deltas, the message item done, response.completed with usage', async () => {
    let text = '';
    let doneText = '';
    let usage: unknown;
    for await (const event of await harness.client.responses.create(codexTurn('And now?'))) {
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.output_item.done' && event.item.type === 'message') {
        doneText = event.item.content.map((part) => (part.type === 'output_text' ? part.text : '')).join('');
      }
      if (event.type === 'response.completed') usage = event.response.usage;
    }
    expect(text.length).toBeGreaterThan(0);
    expect(doneText).toBe(text);
    expect(usage).toMatchObject({ input_tokens: expect.any(Number), output_tokens: 3, total_tokens: expect.any(Number) });
  });

  it('the endpoint gets system turns, flat function names, no web search, and the prompt_cache_key as the session', async () => {
    const stream = await harness.client.responses.create(codexTurn('And now?'));
    for await (const event of stream) void event;
    const { headers, body } = lastUpstream();
    const messages = body.messages as Array<{ role: string; tool_calls?: Array<{ id: string; function: { name: string } }> }>;
    expect(messages.map((message) => message.role)).toEqual(['system', 'user', 'user', 'assistant', 'tool', 'tool', 'user']);
    expect(messages[3]?.tool_calls?.map((call) => [call.id, call.function.name])).toEqual([['call_1', 'exec_command'], ['call_2', 'multi_agent_v1__close_agent']]);
    expect((body.tools as Array<{ function: { name: string } }>).map((tool) => tool.function.name)).toEqual(['exec_command', 'multi_agent_v1__close_agent']);
    expect(body.parallel_tool_calls).toBe(true);
    for (const member of ['reasoning', 'reasoning_effort', 'store', 'include', 'client_metadata', 'prompt_cache_key']) expect(body).not.toHaveProperty(member);
    expect(headers['x-session-id']).toBe(SESSION);
  });

  it('a namespaced call comes back with its namespace, in the added and done items and in response.completed', async () => {
    const turn = { ...codexTurn('Close it [[sim tool_calls=2]]'), tool_choice: 'required' } as ResponseCreateParamsStreaming;
    const done: ResponseFunctionToolCall[] = [];
    let completed: unknown[] = [];
    for await (const event of await harness.client.responses.create(turn)) {
      if (event.type === 'response.output_item.done' && event.item.type === 'function_call') done.push(event.item);
      if (event.type === 'response.completed') completed = event.response.output;
    }
    expect(done.map((call) => [call.name, (call as { namespace?: string }).namespace])).toEqual([['exec_command', undefined], ['close_agent', 'multi_agent_v1']]);
    expect(completed).toMatchObject([{ type: 'function_call', name: 'exec_command' }, { type: 'function_call', name: 'close_agent', namespace: 'multi_agent_v1' }]);
    expect(JSON.stringify(completed)).not.toContain('multi_agent_v1__');
  });
});
