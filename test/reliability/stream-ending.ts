import type { Dialect } from './fault-matrix.js';

/** How a streamed answer ended, read from its dialect's events. */
export interface StreamEnding {
  /** The stream ended the way its dialect ends a finished answer. */
  finished: boolean;
  /** The in-band error, when the stream ended with one. */
  error?: { code: number | null; message: string };
  /** Problems with the shape of the ending itself. */
  problems: string[];
}

interface SseEvent {
  event: string | undefined;
  data: string;
}

function sseEvents(text: string): SseEvent[] {
  return text.split(/\r?\n\r?\n/).flatMap((block) => {
    const lines = block.split(/\r?\n/).filter((line) => line !== '' && !line.startsWith(':'));
    if (lines.length === 0) return [];
    const event = lines.find((line) => line.startsWith('event:'))?.slice(6).trim();
    const data = lines.filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim()).join('\n');
    return [{ event, data }];
  });
}

function parse(data: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(data);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Chat and text completions: an error chunk with finish_reason `error`, then `[DONE]` (spec 01 Events 5). */
function completionsEnding(events: SseEvent[]): StreamEnding {
  const problems: string[] = [];
  const chunks = events.filter((event) => event.event === undefined && event.data !== '[DONE]').map((event) => parse(event.data));
  if (events.at(-1)?.data !== '[DONE]') problems.push('the stream does not end with [DONE]');
  const failing = chunks.filter((chunk) => chunk.error !== undefined);
  if (failing.length > 1) problems.push(`${failing.length} chunks carry an error`);
  const failed = failing[0];
  if (!failed) return { finished: events.at(-1)?.data === '[DONE]', problems };
  if (chunks.at(-1) !== failed) problems.push('the error chunk is not the last chunk');
  const choices = failed.choices as Array<{ finish_reason?: unknown }> | undefined;
  if (choices !== undefined && choices[0]?.finish_reason !== 'error') problems.push('the error chunk has no finish_reason error');
  if (chunks.some((chunk) => chunk.usage !== undefined)) problems.push('a failed stream carries a usage chunk');
  const error = failed.error as { code?: unknown; message?: unknown; metadata?: { error_type?: unknown } };
  if (typeof error.metadata?.error_type !== 'string') problems.push('the in-band error has no metadata.error_type');
  return { finished: false, error: { code: typeof error.code === 'number' ? error.code : null, message: String(error.message) }, problems };
}

/** Messages: `message_stop` ends an answer; a failure is an `error` event, after which nothing follows. */
function messagesEnding(events: SseEvent[]): StreamEnding {
  const problems: string[] = [];
  const failed = events.findIndex((event) => event.event === 'error');
  if (failed < 0) return { finished: events.at(-1)?.event === 'message_stop', problems };
  if (failed !== events.length - 1) problems.push('events follow the error event');
  const body = parse(events[failed]?.data ?? '');
  const error = body.error as { type?: unknown; code?: unknown; message?: unknown } | undefined;
  if (body.type !== 'error' || typeof error?.type !== 'string') problems.push('the error event is not {type: error, error: {type, …}}');
  return { finished: false, error: { code: typeof error?.code === 'number' ? error.code : null, message: String(error?.message) }, problems };
}

/** Responses: `response.completed` ends an answer; a failure is `error` then `response.failed` (spec 01 States). */
function responsesEnding(events: SseEvent[]): StreamEnding {
  const problems: string[] = [];
  const last = events.at(-1);
  const failed = events.find((event) => event.event === 'response.failed');
  if (!failed) return { finished: last?.event === 'response.completed', problems };
  if (last !== failed) problems.push('response.failed is not the last event');
  const errorEvent = events.find((event) => event.event === 'error');
  const inBand = parse(errorEvent?.data ?? '');
  if (!errorEvent || inBand.type !== 'error' || inBand.code !== null) problems.push('no {type: error, code: null} event before response.failed');
  const response = parse(failed.data).response as { status?: unknown; error?: { code?: unknown; message?: unknown } } | undefined;
  if (response?.status !== 'failed' || typeof response.error?.code !== 'string') problems.push('response.failed carries no response.error.code');
  if (response?.error?.message !== inBand.message) problems.push('response.error.message differs from the error event');
  return { finished: false, error: { code: null, message: String(response?.error?.message) }, problems };
}

export function streamEnding(dialect: Dialect, text: string): StreamEnding {
  const events = sseEvents(text);
  switch (dialect) {
    case 'chat':
    case 'completions':
      return completionsEnding(events);
    case 'messages':
      return messagesEnding(events);
    case 'responses':
      return responsesEnding(events);
  }
}
