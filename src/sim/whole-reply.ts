import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SimBehaviour } from './behaviour.js';
import { sendJson } from './json-reply.js';
import type { ReplyPlan } from './reply-plan.js';

/** How one wire answers a non-streamed request: its success body, its error body, a truncated body. */
export interface WholeReplyWire {
  body(): unknown;
  sendError(res: ServerResponse, status: number, message: string): void;
  /** The start of a success body, cut off so it does not parse. */
  brokenBody: string;
}

/**
 * Non-streamed replies wait the time to first token plus the generation time at `tps`, on every
 * wire. Stream-only failures have whole-reply counterparts: a dropped connection, a 500, a body
 * that does not parse.
 */
export async function replyWhole(res: ServerResponse, plan: ReplyPlan, behaviour: SimBehaviour, wire: WholeReplyWire): Promise<void> {
  const generationMs = behaviour.tps ? (plan.completionTokens * 1000) / behaviour.tps : 0;
  const delay = (behaviour.ttftMs ?? 0) + generationMs;
  if (delay > 0) await sleep(delay);
  if (res.destroyed) return;
  if (behaviour.disconnectAfter !== undefined) {
    res.destroy();
  } else if (behaviour.failAfter !== undefined) {
    wire.sendError(res, 500, 'simulated failure 500');
  } else if (behaviour.malformedAfter !== undefined) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(wire.brokenBody);
  } else {
    sendJson(res, 200, wire.body());
  }
}
