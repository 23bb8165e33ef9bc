import type { CoreEvent } from '../core/events.js';
import type { CoreRequest } from '../core/request.js';

/**
 * The tool-call outcome of one answer, for `tool_call_success_1d`: a request offering tools that was
 * answered with tool calls succeeded when every call names a tool the request declared and its
 * arguments parse as a JSON object; it failed when any call does not. An answer in prose counts
 * only where `tool_choice` required a call (then it failed); otherwise prose is a fair answer and
 * no outcome is recorded. Only `tool.*` events are looked at.
 */
export class ToolCallCheck {
  readonly #declared: ReadonlySet<string>;
  readonly #calls = new Map<number, { name: string; args: string }>();

  private constructor(declared: ReadonlySet<string>) {
    this.#declared = declared;
  }

  /** A check for a request that offers tools (and does not refuse them with `tool_choice: none`). */
  static of(request: CoreRequest): ToolCallCheck | undefined {
    if (!request.tools || request.tools.length === 0 || request.toolChoice === 'none') return undefined;
    return new ToolCallCheck(new Set(request.tools.map((tool) => tool.function.name)));
  }

  observe(event: CoreEvent): void {
    if (event.type === 'tool.start') this.#calls.set(event.toolIndex, { name: event.name, args: '' });
    else if (event.type === 'tool.delta') {
      const call = this.#calls.get(event.toolIndex);
      if (call) call.args += event.args;
    }
  }

  /** True (well-formed calls), false (a malformed call, or prose where a call was owed), undefined (fair prose). */
  outcome(callOwed: boolean): boolean | undefined {
    if (this.#calls.size === 0) return callOwed ? false : undefined;
    for (const call of this.#calls.values()) {
      if (!this.#declared.has(call.name) || !isJsonObject(call.args)) return false;
    }
    return true;
  }
}

function isJsonObject(text: string): boolean {
  try {
    const parsed: unknown = JSON.parse(text === '' ? '{}' : text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}
