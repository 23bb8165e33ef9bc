import type { DispatchBehaviour } from './behaviour.js';
import { namedSseFrame } from './sse-frame.js';
import type { ToolCallPlan } from './tool-call-plan.js';

export const DISPATCH_EVENT = 'tool_call_dispatch';

/** The size above which a dispatch payload is to be ignored by whoever reads it. */
export const DISPATCH_PAYLOAD_LIMIT = 64 * 1024;

const MALFORMED_DISPATCH = `event: ${DISPATCH_EVENT}\ndata: {"choice_index":0,"tool_call":{"index":0,"id":\n\n`;

/** Arguments of a valid JSON object whose text alone is over the payload limit. */
const BIG_ARGUMENTS = JSON.stringify({ query: 'x'.repeat(DISPATCH_PAYLOAD_LIMIT) });

function dispatchFrame(call: ToolCallPlan, index: number, args: string): string {
  return namedSseFrame(DISPATCH_EVENT, {
    choice_index: 0,
    tool_call: { index, id: call.id, type: 'function', function: { name: call.name, arguments: args } },
  });
}

/**
 * The call-ready events sent after the last argument fragment: a non-JSON one and an oversized
 * one first when asked, then a good one per call, once or twice each.
 */
export function dispatchFrames(calls: readonly ToolCallPlan[], dispatch: DispatchBehaviour): string {
  let frames = '';
  if (dispatch.malformed) frames += MALFORMED_DISPATCH;
  calls.forEach((call, index) => {
    const good = dispatchFrame(call, index, call.arguments);
    if (dispatch.big && index === 0) frames += dispatchFrame(call, index, BIG_ARGUMENTS);
    frames += good;
    if (dispatch.twice) frames += good;
  });
  return frames;
}
