import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface SseFrame {
  data: string;
  event?: string;
}

/**
 * Yields the SSE frames of an upstream body, all those completed by one read together (none when
 * a read completes none). Bytes are decoded once, incrementally; the parser keeps only the
 * unfinished tail between reads.
 */
export async function* readSseBatches(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseFrame[]> {
  let completed: SseFrame[] = [];
  const parser = createParser({
    onEvent(message: EventSourceMessage) {
      completed.push(frameOf(message));
    },
  });
  const decoder = new TextDecoder();
  const taken = () => {
    const frames = completed;
    completed = [];
    return frames;
  };
  for await (const bytes of body) {
    parser.feed(decoder.decode(bytes, { stream: true }));
    if (completed.length > 0) yield taken();
  }
  parser.feed(decoder.decode());
  if (completed.length > 0) yield taken();
}

/** The SSE frames of an upstream body, one at a time. */
export async function* readSseFrames(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseFrame> {
  for await (const frames of readSseBatches(body)) yield* frames;
}

/** The SSE frames of a whole text (a stream already read to its end). */
export function sseFramesOf(text: string): SseFrame[] {
  const frames: SseFrame[] = [];
  const parser = createParser({
    onEvent(message: EventSourceMessage) {
      frames.push(frameOf(message));
    },
  });
  parser.feed(text);
  // a last frame without its blank line ends with the text
  parser.feed('\n\n');
  return frames;
}

function frameOf(message: EventSourceMessage): SseFrame {
  return message.event ? { data: message.data, event: message.event } : { data: message.data };
}
