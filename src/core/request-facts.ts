import type { InputSource } from '../catalogue/types.js';
import { GatewayError, invalidRequest } from './errors.js';
import { containerOf, containerOfFilename, parseDataUrl } from './media-type.js';
import type { ContentPart, CoreRequest } from './request.js';
import { estimateMessageTokens, estimateToolTokens, TokenEstimator } from './token-estimate.js';

/** One non-text part a turn carries, as routing judges it (rules 10, 11). */
export interface InputPart {
  modality: 'image' | 'audio' | 'video' | 'file';
  source: InputSource;
  /** Absent for a part behind an https URL: it names no container. */
  container?: string;
  /** An `input_audio` part (inline bytes under their own member). */
  inlineAudio?: boolean;
}

/** What the planner needs to know about a request, computed once. */
export interface RequestFacts {
  promptTokens: number;
  /** Estimated tokens of each message, in order (for middle-out compression). */
  messageTokens: number[];
  toolTokens: number;
  inputs: InputPart[];
  /**
   * The largest piece one call must fit in an endpoint's window, when that is not the whole prompt
   * (an embeddings batch embeds each input on its own).
   */
  windowTokens?: number;
}

export const MAX_STORED_FILES = 16;

export function requestFacts(request: CoreRequest): RequestFacts {
  const estimator = new TokenEstimator();
  const toolTokens = estimateToolTokens(request.tools, estimator);
  const messageTokens = request.messages.map((message) => estimateMessageTokens(message, estimator));
  const storedFiles = countStoredFiles(request);
  if (storedFiles > MAX_STORED_FILES) throw invalidRequest('messages', `names ${storedFiles} stored files; at most ${MAX_STORED_FILES}`);
  const inputs: InputPart[] = [];
  request.messages.forEach((message, messageIndex) => {
    if (!Array.isArray(message.content)) return;
    message.content.forEach((part, partIndex) => {
      const fileField = request.fileFields?.[`${messageIndex}.${partIndex}`] ?? `messages[${messageIndex}].content[${partIndex}].file`;
      const read = readPart(part, fileField);
      if (read) inputs.push(read);
    });
  });
  const promptTokens = messageTokens.reduce((sum, count) => sum + count, toolTokens);
  return { promptTokens, messageTokens, toolTokens, inputs };
}

function countStoredFiles(request: CoreRequest): number {
  let count = 0;
  for (const message of request.messages) {
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content) if (part.type === 'file' && part.file.file_id !== undefined) count += 1;
  }
  return count;
}

function readPart(part: ContentPart, fileField: string): InputPart | undefined {
  switch (part.type) {
    case 'text':
      return undefined;
    case 'image_url':
      return fromUrl('image', part.image_url.url);
    case 'video_url':
      return fromUrl('video', part.video_url.url);
    case 'audio_url':
      return fromUrl('audio', part.audio_url.url);
    case 'input_audio':
      return { modality: 'audio', source: 'base64', container: part.input_audio.format.toLowerCase(), inlineAudio: true };
    case 'file':
      return readFile(part.file, fileField);
  }
}

/** A part behind a URL: a data URL hands bytes (its container from the media type), any other is fetched. */
export function fromUrl(modality: InputPart['modality'], url: string): InputPart {
  const data = parseDataUrl(url);
  if (!data) return { modality, source: 'url' };
  const container = containerOf(data.mediaType);
  return container ? { modality, source: 'base64', container } : { modality, source: 'base64' };
}

/** `field` names the member holding `file_id` / `file_data` as the request wrote it. */
function readFile(file: { filename?: string; file_data?: string; file_id?: string }, field: string): InputPart {
  if (file.file_id !== undefined && file.file_data !== undefined) {
    throw invalidRequest(field, 'names both file_id and file_data; send one');
  }
  if (file.file_id === undefined && file.file_data === undefined) {
    throw invalidRequest(field, 'names neither file_id nor file_data; send one');
  }
  if (file.file_id !== undefined) {
    throw new GatewayError('not_found', `${field}.file_id: no stored file ${file.file_id} readable by this account`);
  }
  const data = file.file_data !== undefined ? parseDataUrl(file.file_data) : undefined;
  if (!data && file.file_data !== undefined && /^https?:\/\//i.test(file.file_data)) return { modality: 'file', source: 'url' };
  const container = (data && containerOf(data.mediaType)) ?? (file.filename ? containerOfFilename(file.filename) : undefined);
  return container ? { modality: 'file', source: 'base64', container } : { modality: 'file', source: 'base64' };
}
