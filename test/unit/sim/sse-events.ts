import type { ChatCompletionChunk } from 'openai/resources/chat/completions';

/** One server-sent event as it arrived: its name ('message' when unnamed) and its data text. */
export interface SseEvent {
  event: string;
  data: string;
}

export function sseEvents(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.split('\n\n')) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event: ')) event = line.slice('event: '.length);
      else if (line.startsWith('data: ')) data.push(line.slice('data: '.length));
    }
    if (data.length > 0) events.push({ event, data: data.join('\n') });
  }
  return events;
}

export function isJson(data: string): boolean {
  try {
    JSON.parse(data);
    return true;
  } catch {
    return false;
  }
}

/** The chat.completion.chunk frames (unnamed, JSON, with a choices array). */
export function chatChunks(text: string): ChatCompletionChunk[] {
  return sseEvents(text)
    .filter((e) => e.event === 'message' && e.data !== '[DONE]' && isJson(e.data))
    .map((e) => JSON.parse(e.data) as ChatCompletionChunk)
    .filter((c) => Array.isArray(c.choices));
}

/** The delta of each chunk's first choice, as plain records (extensions included). */
export function deltas(text: string): Array<Record<string, unknown>> {
  return chatChunks(text)
    .map((c) => c.choices[0]?.delta as Record<string, unknown> | undefined)
    .filter((d): d is Record<string, unknown> => d !== undefined);
}
