import { isPlainObject } from '../core/plain-object.js';

/** The text of one chat message: its string content, or its text parts joined. */
export function messageText(message: unknown): string {
  if (!isPlainObject(message)) return '';
  const content = message.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content) {
    if (isPlainObject(part) && part.type === 'text' && typeof part.text === 'string') text += part.text;
  }
  return text;
}

export function messageList(body: Record<string, unknown>): unknown[] {
  return Array.isArray(body.messages) ? body.messages : [];
}

/** The text of the last message whose role is `user` ('' when there is none). */
export function lastUserText(messages: readonly unknown[]): string {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i];
    if (isPlainObject(message) && message.role === 'user') return messageText(message);
  }
  return '';
}
