import type { CoreEvent } from './events.js';
import type { CoreRequest } from './request.js';

/**
 * Whether the caller sees an event: reasoning is billed but not shown when `reasoning.exclude`
 * is set, and call-ready dispatch events reach only callers who opted in.
 */
export function visibleToCaller(event: CoreEvent, request: CoreRequest): boolean {
  switch (event.type) {
    case 'reasoning.start':
    case 'reasoning.delta':
    case 'reasoning.end':
      return request.reasoning?.exclude !== true;
    case 'tool.dispatch':
      return request.toolDispatch === true;
    default:
      return true;
  }
}
