import { isPlainObject } from '../core/plain-object.js';

/** The input modality of a content part or block, on either wire; undefined for text and the rest. */
const PART_MODALITIES: Readonly<Record<string, string>> = {
  image_url: 'image',
  image: 'image',
  input_audio: 'audio',
  audio_url: 'audio',
  video_url: 'video',
  file: 'file',
  document: 'file',
};

/** Whether any message of the body carries a part of `modality`. */
export function carriesModality(body: Record<string, unknown>, modality: string): boolean {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  return messages.some((message) => isPlainObject(message) && Array.isArray(message.content)
    && message.content.some((part) => isPlainObject(part) && typeof part.type === 'string' && PART_MODALITIES[part.type] === modality));
}
