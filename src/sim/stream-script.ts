import type { SimBehaviour } from './behaviour.js';
import type { StreamFrames } from './chat-chunks.js';
import { MALFORMED_FRAME, sseFrame } from './sse-frame.js';

/**
 * What a stream sends: batches written one pacing tick apart (the first after the time to
 * first token), then how the response ends.
 */
export interface StreamScript {
  batches: string[];
  ending: 'end' | 'destroy';
}

const MID_STREAM_ERROR = sseFrame({ error: { message: 'simulated mid-stream failure', code: 500 } });

interface Item {
  text: string;
  content: boolean;
}

interface Cut {
  /** Content frames sent before the tail. */
  sent: number;
  tail: string;
  ending: 'end' | 'destroy';
  failing: boolean;
}

/**
 * The earlier of disconnect_after and fail_after cuts the stream; otherwise every content frame
 * goes out, then the dispatch events, then the closing frames or, with fail_after_dispatch, an error.
 */
function cutOf(frames: StreamFrames, behaviour: SimBehaviour): Cut {
  const total = frames.content.length;
  const { disconnectAfter, failAfter } = behaviour;
  if (disconnectAfter !== undefined && (failAfter === undefined || disconnectAfter <= failAfter)) {
    return { sent: Math.min(disconnectAfter, total), tail: '', ending: 'destroy', failing: true };
  }
  if (failAfter !== undefined) {
    return { sent: Math.min(failAfter, total), tail: frames.failure ?? MID_STREAM_ERROR, ending: 'end', failing: true };
  }
  if (frames.dispatch !== '' && behaviour.dispatch?.failAfter) {
    return { sent: total, tail: frames.dispatch + MID_STREAM_ERROR, ending: 'end', failing: true };
  }
  return { sent: total, tail: frames.dispatch + frames.closing, ending: 'end', failing: false };
}

function scriptItems(frames: StreamFrames, behaviour: SimBehaviour, cut: Cut): Item[] {
  const items: Item[] = [];
  // A failure after zero content chunks happens before any chunk at all.
  if (!(cut.failing && cut.sent === 0)) items.push({ text: frames.opening, content: false });
  const malformedAt = behaviour.malformedAfter;
  for (let i = 0; i < cut.sent; i += 1) {
    if (malformedAt === i) items.push({ text: MALFORMED_FRAME, content: false });
    items.push({ text: frames.content[i] ?? '', content: true });
  }
  // Past the last content frame: just before the closing frames, unless a failure comes first.
  if (malformedAt !== undefined && malformedAt >= cut.sent && (!cut.failing || malformedAt === cut.sent)) {
    items.push({ text: MALFORMED_FRAME, content: false });
  }
  items.push({ text: cut.tail, content: false });
  return items;
}

/** Groups frames so that each batch holds exactly one content frame (paced one tick apart). */
function batchItems(items: readonly Item[]): string[] {
  const batches: string[] = [];
  let current = '';
  let holdsContent = false;
  for (const item of items) {
    if (item.content && holdsContent) {
      batches.push(current);
      current = '';
    }
    current += item.text;
    holdsContent ||= item.content;
  }
  batches.push(current);
  return batches;
}

export function scriptStream(frames: StreamFrames, behaviour: SimBehaviour): StreamScript {
  const cut = cutOf(frames, behaviour);
  return { batches: batchItems(scriptItems(frames, behaviour, cut)), ending: cut.ending };
}
