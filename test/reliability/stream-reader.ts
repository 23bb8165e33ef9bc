/** What a client saw of one streamed chat completion. */
export interface StreamSeen {
  /** The X-Generation-Id of an answer that opened; null when none came before the connection ended. */
  generationId: string | null;
  status: number | null;
  /** The answer text received. */
  text: string;
  /** Content chunks received. */
  chunks: number;
  /** How the stream ended: `done` after `[DONE]`, else the error that cut it. */
  ending: 'done' | string;
}

/**
 * Sends one streamed chat request and reads it to its end (or until the connection breaks),
 * calling `onChunk` after each content chunk.
 */
export async function readChatStream(options: {
  url: string;
  key: string;
  body: Record<string, unknown>;
  signal?: AbortSignal;
  onChunk?: () => void;
}): Promise<StreamSeen> {
  const seen: StreamSeen = { generationId: null, status: null, text: '', chunks: 0, ending: 'open' };
  try {
    const response = await fetch(`${options.url}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${options.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...options.body, stream: true }),
      ...(options.signal && { signal: options.signal }),
    });
    seen.status = response.status;
    seen.generationId = response.headers.get('x-generation-id');
    if (!response.body) throw new Error('no body');
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const bytes of response.body) {
      buffer += decoder.decode(bytes as Uint8Array, { stream: true });
      const frames = buffer.split('\n\n');
      buffer = frames.pop() ?? '';
      for (const frame of frames) read(frame, seen, options.onChunk);
    }
  } catch (error) {
    seen.ending = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }
  return seen;
}

function read(frame: string, seen: StreamSeen, onChunk: (() => void) | undefined): void {
  const data = frame.split('\n').find((line) => line.startsWith('data: '))?.slice('data: '.length);
  if (data === undefined) return;
  if (data === '[DONE]') {
    seen.ending = 'done';
    return;
  }
  const chunk = JSON.parse(data) as { choices?: Array<{ delta?: { content?: string | null } }> };
  const content = chunk.choices?.[0]?.delta?.content;
  if (typeof content !== 'string' || content.length === 0) return;
  seen.text += content;
  seen.chunks += 1;
  onChunk?.();
}
