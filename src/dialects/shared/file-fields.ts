import type { ContentPart, CoreMessage } from '../../core/request.js';

/** Each stored-file part a decoder built → where the request wrote it. Keyed by identity, so nothing outlives the request. */
const written = new WeakMap<ContentPart, string>();

/**
 * Notes where the request wrote the member holding a part's `file_id` / `file_data`, for dialects
 * whose wire path differs from chat's `messages[i].content[j].file`. Returns the part.
 */
export function noteFileField(part: ContentPart, field: string): ContentPart {
  if (part.type === 'file') written.set(part, field);
  return part;
}

/** The noted fields of a decoded conversation, keyed `i.j` by the part's place in it. */
export function fileFieldsOf(messages: readonly CoreMessage[]): Record<string, string> | undefined {
  const fields: Record<string, string> = {};
  messages.forEach((message, messageIndex) => {
    if (!Array.isArray(message.content)) return;
    message.content.forEach((part, partIndex) => {
      const field = written.get(part);
      if (field !== undefined) fields[`${messageIndex}.${partIndex}`] = field;
    });
  });
  return Object.keys(fields).length > 0 ? fields : undefined;
}
