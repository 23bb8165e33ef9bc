import { audioMediaType } from '../../core/media-type.js';
import type { ContentPart, CoreMessage } from '../../core/request.js';

/**
 * `input_audio` and `audio_url` are the same audio (rule 11): an endpoint taking inline bytes is
 * handed each `input_audio` part as an `audio_url` data URL. Messages without such parts are
 * returned as they are.
 */
export function inputAudioAsDataUrls(messages: CoreMessage[]): CoreMessage[] {
  if (!messages.some(hasInputAudio)) return messages;
  return messages.map((message) => (hasInputAudio(message) && Array.isArray(message.content)
    ? { ...message, content: message.content.map(rewritePart) }
    : message));
}

function hasInputAudio(message: CoreMessage): boolean {
  return Array.isArray(message.content) && message.content.some((part) => part.type === 'input_audio');
}

function rewritePart(part: ContentPart): ContentPart {
  if (part.type !== 'input_audio') return part;
  const { data, format } = part.input_audio;
  return { type: 'audio_url', audio_url: { url: `data:${audioMediaType(format)};base64,${data}` } };
}
