import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface SseFrame {
  data: string;
  event?: string;
}

/**
 * Yields the SSE frames of an upstream body as they arrive. Bytes are decoded once, incrementally;
 * the parser keeps only the unfinished tail between reads.
 */
export async function* readSseFrames(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseFrame> {
  const pending: SseFrame[] = [];
  const parser = createParser({
    onEvent(message: EventSourceMessage) {
      pending.push(frameOf(message));
    },
  });
  const decoder = new TextDecoder();
  for await (const bytes of body) {
    parser.feed(decoder.decode(bytes, { stream: true }));
    while (pending.length > 0) yield pending.shift() as SseFrame;
  }
  parser.feed(decoder.decode());
  while (pending.length > 0) yield pending.shift() as SseFrame;
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
