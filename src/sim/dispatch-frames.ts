import type { DispatchBehaviour } from './behaviour.js';
import { namedSseFrame } from './sse-frame.js';
import type { ToolCallPlan } from './tool-call-plan.js';

export const DISPATCH_EVENT = 'tool_call_dispatch';

/** The size above which a dispatch payload is to be ignored by whoever reads it. */
export const DISPATCH_PAYLOAD_LIMIT = 64 * 1024;

const MALFORMED_DISPATCH = `event: ${DISPATCH_EVENT}\ndata: {"choice_index":0,"tool_call":{"index":0,"id":\n\n`;

/** Arguments of a valid JSON object whose text alone is over the payload limit. */
const BIG_ARGUMENTS = JSON.stringify({ query: 'x'.repeat(DISPATCH_PAYLOAD_LIMIT) });

function dispatchFrame(call: ToolCallPlan, args: string): string {
  return namedSseFrame(DISPATCH_EVENT, {
    choice_index: 0,
    tool_call: { index: 0, id: call.id, type: 'function', function: { name: call.name, arguments: args } },
  });
}

/**
 * The call-ready events sent after the last argument fragment: a non-JSON one and an oversized
 * one first when asked, then the good one, once or twice.
 */
export function dispatchFrames(call: ToolCallPlan, dispatch: DispatchBehaviour): string {
  const good = dispatchFrame(call, call.arguments);
  let frames = '';
  if (dispatch.malformed) frames += MALFORMED_DISPATCH;
  if (dispatch.big) frames += dispatchFrame(call, BIG_ARGUMENTS);
  frames += good;
  if (dispatch.twice) frames += good;
  return frames;
}
