/** One server-sent event carrying `data` as JSON. */
export function sseFrame(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}

/** One named server-sent event (`event: NAME`) carrying `data` as JSON. */
export function namedSseFrame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export const DONE_FRAME = 'data: [DONE]\n\n';

/** A frame whose data is deliberately not JSON. */
export const MALFORMED_FRAME = 'data: {"id": "chatcmpl-broken", "choices": [{"delta": {"content": "unterminated\n\n';
