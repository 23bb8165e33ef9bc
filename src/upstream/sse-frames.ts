import { StringDecoder } from 'node:string_decoder';
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface SseFrame {
  data: string;
  event?: string;
}

const NO_FRAMES: readonly SseFrame[] = [];

/**
 * An upstream body's bytes read as SSE frames, fed as they arrive: each feed answers the frames it
 * completed. Bytes are decoded once, incrementally; the parser keeps only the unfinished tail.
 */
export class SseFrameReader {
  #completed: SseFrame[] = [];
  readonly #parser = createParser({
    onEvent: (message: EventSourceMessage) => {
      this.#completed.push(frameOf(message));
    },
  });
  // a quarter of TextDecoder's cost per read; it keeps a character cut between reads for the next
  readonly #decoder = new StringDecoder('utf8');
  #started = false;

  /** The frames completed by `bytes` (none when they complete none). */
  feed(bytes: Uint8Array): readonly SseFrame[] {
    this.#parser.feed(this.#text(this.#decoder.write(bytes)));
    return this.#taken();
  }

  /** The frames completed by the end of the body. */
  end(): readonly SseFrame[] {
    this.#parser.feed(this.#text(this.#decoder.end()));
    return this.#taken();
  }

  /** The decoded text, a byte-order mark opening the body dropped (the parser looks for one only as three bytes). */
  #text(text: string): string {
    if (this.#started || text.length === 0) return text;
    this.#started = true;
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }

  #taken(): readonly SseFrame[] {
    const frames = this.#completed;
    if (frames.length === 0) return NO_FRAMES;
    this.#completed = [];
    return frames;
  }
}

/** The SSE frames of an upstream body, one at a time. */
export async function* readSseFrames(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseFrame> {
  const reader = new SseFrameReader();
  for await (const bytes of body) yield* reader.feed(bytes);
  yield* reader.end();
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
