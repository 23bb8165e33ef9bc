import type { ContentPart } from '../../core/request.js';
import { noteFileField } from '../shared/file-fields.js';
import type { DocumentBlock, ImageBlock, TextBlock } from './block-schema.js';

/**
 * An `image` or `document` block → the core's parts. Inline bytes travel as data URLs; a URL is
 * passed on as it is; a stored file id follows the chat rules for `file` parts (read under the
 * account, never forwarded); a plain-text document is text, introduced by its title.
 */
export function mediaPart(block: ImageBlock | DocumentBlock, field: string): ContentPart[] {
  const parts = block.type === 'image' ? [imagePart(block)] : documentParts(block);
  return parts.map((part) => noteFileField(part, `${field}.source`));
}

function imagePart({ source }: ImageBlock): ContentPart {
  switch (source.type) {
    case 'base64':
      return { type: 'image_url', image_url: { url: dataUrl(source.media_type, source.data) } };
    case 'url':
      return { type: 'image_url', image_url: { url: source.url } };
    case 'file':
      return { type: 'file', file: { file_id: source.file_id } };
  }
}

function documentParts(block: DocumentBlock): ContentPart[] {
  const { source, title } = block;
  const filename = title !== undefined ? { filename: title } : {};
  switch (source.type) {
    case 'base64':
      return [{ type: 'file', file: { ...filename, file_data: dataUrl(source.media_type, source.data) } }];
    case 'url':
      return [{ type: 'file', file: { filename: title ?? lastSegment(source.url), file_data: source.url } }];
    case 'file':
      return [{ type: 'file', file: { ...filename, file_id: source.file_id } }];
    case 'text':
      return [{ type: 'text', text: titled(title, source.data) }];
    case 'content':
      return contentSource(source.content, title);
  }
}

/** A document whose source is its own content: a string, or text and image blocks. */
function contentSource(content: string | (TextBlock | ImageBlock)[], title: string | undefined): ContentPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: titled(title, content) }];
  const parts: ContentPart[] = title !== undefined ? [{ type: 'text', text: title }] : [];
  content.forEach((block) => {
    if (block.type === 'text') parts.push({ type: 'text', text: block.text });
    else parts.push(imagePart(block));
  });
  return parts;
}

function dataUrl(mediaType: string, data: string): string {
  return `data:${mediaType};base64,${data}`;
}

function titled(title: string | undefined, text: string): string {
  return title !== undefined ? `${title}\n\n${text}` : text;
}

function lastSegment(url: string): string {
  const path = URL.canParse(url) ? new URL(url).pathname : url;
  return path.split('/').filter(Boolean).at(-1) ?? 'document';
}
