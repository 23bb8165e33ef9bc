import type { BetaMessageParam, BetaTool, MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/beta/messages/messages';

/** The beta Claude Code names when it sends a system turn inside `messages`. */
export const MID_CONVERSATION_SYSTEM_BETA = 'mid-conversation-system-2026-04-07';

const AGENT_TOOL_NAMES = [
  'Agent', 'Bash', 'Glob', 'Grep', 'ExitPlanMode', 'Read', 'Edit', 'MultiEdit', 'Write', 'NotebookEdit', 'WebFetch', 'TodoWrite',
  'WebSearch', 'BashOutput', 'KillShell', 'SlashCommand', 'Skill', 'AskUserQuestion', 'ListMcpResources', 'ReadMcpResource',
  'mcp__ide__getDiagnostics', 'mcp__ide__executeCode', 'mcp__github__search_code', 'mcp__github__create_issue',
];

/**
 * Two dozen tools as a coding agent declares them: custom tools with `input_schema`, one typed
 * `custom`, deferred MCP tools, one with eager input streaming, the last with a cache breakpoint.
 */
export function agentTools(): BetaTool[] {
  return AGENT_TOOL_NAMES.map((name, position) => {
    const tool: BetaTool = {
      name,
      description: `The ${name} tool`,
      input_schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'], additionalProperties: false },
    };
    if (position === 1) tool.type = 'custom';
    if (name === 'Edit') tool.eager_input_streaming = true;
    if (name.startsWith('mcp__github')) tool.defer_loading = true;
    if (position === AGENT_TOOL_NAMES.length - 1) tool.cache_control = { type: 'ephemeral' };
    return tool;
  });
}

/**
 * A conversation as a coding agent sends it after one tool round: user text blocks with cache
 * breakpoints, an assistant turn with signed thinking and a tool call, the tool's result, then a
 * system turn the agent adds mid-conversation, then the next user turn.
 */
export function agentConversation(lastUserText: string): BetaMessageParam[] {
  return [
    { role: 'user', content: [{ type: 'text', text: '<system-reminder>Project notes</system-reminder>' }, { type: 'text', text: 'List the files', cache_control: { type: 'ephemeral' } }] },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'I should run ls.', signature: 'sig-agent-1' },
        { type: 'text', text: 'Listing them.' },
        { type: 'tool_use', id: 'toolu_agent_1', name: 'Bash', input: { command: 'ls' } },
      ],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_agent_1', content: 'README.md\nsrc', cache_control: { type: 'ephemeral' } }] },
    { role: 'system', content: [{ type: 'text', text: 'The user switched to plan mode: do not edit files.' }] },
    { role: 'user', content: lastUserText },
  ];
}

/** The body of a coding agent's streamed turn, every member it sends beside the conversation. */
export function agentRequest(model: string, lastUserText: string): MessageCreateParamsStreaming {
  return {
    model,
    max_tokens: 32000,
    stream: true,
    system: [
      { type: 'text', text: 'You are a coding agent.' },
      { type: 'text', text: 'Follow the project conventions.', cache_control: { type: 'ephemeral' } },
    ],
    messages: agentConversation(lastUserText),
    tools: agentTools(),
    thinking: { type: 'adaptive' },
    output_config: { effort: 'high' },
    context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
    metadata: { user_id: 'user_0f3a_account__session_5d1c' },
    betas: [MID_CONVERSATION_SYSTEM_BETA],
  };
}
