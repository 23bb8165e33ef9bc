/** The one place SSE text is framed. */

export function sseData(payload: unknown): string {
  return `data: ${JSON.stringify(payload)}\n\n`;
}

export function sseEvent(name: string, payload: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`;
}

export function sseComment(text: string): string {
  return `: ${text}\n\n`;
}

export const SSE_DONE = 'data: [DONE]\n\n';
