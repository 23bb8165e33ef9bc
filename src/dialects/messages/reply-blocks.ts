import { parseDataUrl } from '../../core/media-type.js';
import type { ReasoningKind } from '../../core/events.js';

export type ImageSource = { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string };

/** A generated picture's `source`: its bytes where the endpoint returned bytes, else its URL unchanged. */
export function imageSource(url: string): ImageSource {
  const data = parseDataUrl(url);
  if (!data) return { type: 'url', url };
  const bytes = data.base64 ? data.data : Buffer.from(decodeURIComponent(data.data), 'utf8').toString('base64');
  return { type: 'base64', media_type: data.mediaType || 'application/octet-stream', data: bytes };
}

/**
 * A reasoning entry as a content block: readable reasoning (text, and summaries) is `thinking`,
 * opaque reasoning `redacted_thinking`. Anthropic's own wire sends summarised thinking as `thinking`
 * blocks too. `signature` is a string member of every `thinking` block of a reply (the Anthropic
 * client types and the validating clients require it), so reasoning nobody signed, such as a
 * summary, carries `""`: it verifies nothing, the dialect's request schema takes the block back
 * (its `signature` is an optional string), the empty signature reads as none, and the Anthropic
 * request builder leaves unsigned thinking out, so a later turn is never refused for it. A
 * `redacted_thinking` block would hide readable text in a member meant for an encrypted blob, and
 * an Anthropic endpoint sent it back would refuse it; leaving the summary out would lose it.
 */
export function reasoningBlock(kind: ReasoningKind, text: string, signature: string | undefined): Record<string, unknown> {
  if (kind === 'encrypted') return { type: 'redacted_thinking', data: text };
  return { type: 'thinking', thinking: text, signature: signature ?? '' };
}

/** A tool call's JSON-string arguments as the `input` object; arguments that are not an object read as `{}`. */
export function toolInput(args: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(args);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed as Record<string, unknown> : {};
  } catch {
    return {};
  }
}

/** The reply's `id`: `msg_` and the generation id's own part, so the two are read as one. */
export function messageId(generationId: string): string {
  return `msg_${generationId.replace(/^gen-/, '')}`;
}
