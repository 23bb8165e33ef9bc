import type { CollectedAudio, CollectedReply } from '../../core/collect.js';
import type { ToolOrigin } from '../../core/request.js';
import type { ResponseIds } from './response-object.js';

export type ItemStatus = 'in_progress' | 'completed' | 'incomplete';

export type OutputPart =
  | { type: 'output_text'; text: string; annotations: unknown[] }
  | { type: 'refusal'; refusal: string }
  | { type: 'output_image'; image_url: string }
  | { type: 'output_audio'; data: string; transcript: string; id: string; expires_at: number | null };

export interface MessageItem {
  type: 'message';
  id: string;
  status: ItemStatus;
  role: 'assistant';
  content: OutputPart[];
}

export interface FunctionCallItem {
  type: 'function_call';
  id: string;
  call_id: string;
  name: string;
  namespace?: string;
  arguments: string;
  status: ItemStatus;
}

export function textPart(text: string): OutputPart {
  return { type: 'output_text', text, annotations: [] };
}

export function audioPart(audio: CollectedAudio): OutputPart {
  return { type: 'output_audio', data: audio.data, transcript: audio.transcript, id: audio.id ?? '', expires_at: audio.expiresAt ?? null };
}

export function messageItem(id: string, status: ItemStatus, content: OutputPart[]): MessageItem {
  return { type: 'message', id, status, role: 'assistant', content };
}

/** A call under the name the caller declared: a namespaced function gets its namespace back. */
export function functionCallItem(
  call: { id: string; callId: string; name: string; arguments: string; status: ItemStatus },
  origins: Readonly<Record<string, ToolOrigin>> | undefined,
): FunctionCallItem {
  const origin = origins?.[call.name];
  const item: FunctionCallItem = { type: 'function_call', id: call.id, call_id: call.callId, name: origin?.name ?? call.name, arguments: call.arguments, status: call.status };
  if (origin) item.namespace = origin.namespace;
  return item;
}

/** The output of a whole reply: the assistant message (text, refusal, pictures, audio), then each call. */
export function outputItems(reply: CollectedReply, ids: ResponseIds, status: ItemStatus, origins?: Record<string, ToolOrigin>): unknown[] {
  const content: OutputPart[] = [];
  if (reply.hasText) content.push(textPart(reply.text));
  if (reply.refusal !== undefined) content.push({ type: 'refusal', refusal: reply.refusal });
  for (const image of reply.images) content.push({ type: 'output_image', image_url: image.url });
  if (reply.audio) content.push(audioPart(reply.audio));
  const items: unknown[] = [];
  if (content.length > 0) items.push(messageItem(ids.item('msg', 0), status, content));
  for (const call of reply.toolCalls) {
    const outputIndex = items.length;
    items.push(functionCallItem(
      { id: ids.item('fc', outputIndex), callId: call.id, name: call.name, arguments: call.arguments, status: 'completed' },
      origins,
    ));
  }
  return items;
}
