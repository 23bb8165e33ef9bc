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
      pending.push(message.event ? { data: message.data, event: message.event } : { data: message.data });
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
