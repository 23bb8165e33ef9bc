import type { CoreEvent, UpstreamFailure } from './events.js';
import type { CoreRequest } from './request.js';

/** `tool_choice` `required` or a named function: the answer must be a tool call (rule 6). */
export interface ToolContract {
  /** The function the call must name; undefined for `required` (any function). */
  name?: string;
}

export function toolContractOf(request: CoreRequest): ToolContract | undefined {
  const choice = request.toolChoice;
  if (choice === 'required') return {};
  if (typeof choice === 'object') return { name: choice.function.name };
  return undefined;
}

/** True when the event is the tool call the contract asks for. */
export function honoursContract(event: CoreEvent, contract: ToolContract): boolean {
  if (event.type !== 'tool.start' && event.type !== 'tool.dispatch') return false;
  return contract.name === undefined || event.name === contract.name;
}

export function contractDescription(contract: ToolContract): string {
  return contract.name === undefined ? 'tool_choice "required"' : `tool_choice naming function ${contract.name}`;
}

/** The attempt's failure when it answered with prose (or another function) instead. */
export function contractFailure(contract: ToolContract): UpstreamFailure {
  return {
    kind: 'contract',
    retryable: true,
    providerMessage: `the endpoint answered without the tool call that ${contractDescription(contract)} requires`,
  };
}
