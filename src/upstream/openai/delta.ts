import type { CoreEvent, ReasoningExtras } from '../../core/events.js';
import type { BlockTracker } from '../block-tracker.js';
import { arrayOf, countOf, isPlainObject, objectOf, stringOf, type JsonObject } from '../json-guards.js';

/**
 * Applies one OpenAI-compatible `delta` (stream) or `message` (whole reply) to the block tracker.
 * Both shapes carry the same members; a whole message is simply one big delta.
 */
export function applyOpenAiDelta(delta: JsonObject, blocks: BlockTracker, out: CoreEvent[]): void {
  const reasoning = stringOf(delta.reasoning) ?? stringOf(delta.reasoning_content);
  const details = arrayOf(delta.reasoning_details);
  if (details.length > 0) applyReasoningDetails(details, blocks, out);
  else if (reasoning) blocks.reasoning('text', reasoning, out);

  const content = stringOf(delta.content);
  if (content) blocks.text(content, out);
  const refusal = stringOf(delta.refusal);
  if (refusal) blocks.refusal(refusal, out);

  arrayOf(delta.tool_calls).forEach((call, position) => {
    if (isPlainObject(call)) applyToolCall(call, position, blocks, out);
  });
  for (const image of arrayOf(delta.images)) {
    const url = isPlainObject(image) ? stringOf(objectOf(image.image_url)?.url) : undefined;
    if (url) blocks.image(url, out);
  }
  const audio = objectOf(delta.audio);
  if (audio) applyAudio(audio, blocks, out);
}

function applyAudio(audio: JsonObject, blocks: BlockTracker, out: CoreEvent[]): void {
  const fragment: Parameters<BlockTracker['audio']>[0] = {};
  const id = stringOf(audio.id);
  const data = stringOf(audio.data);
  const transcript = stringOf(audio.transcript);
  const expiresAt = countOf(audio.expires_at);
  if (id) fragment.id = id;
  if (data) fragment.data = data;
  if (transcript) fragment.transcript = transcript;
  if (expiresAt !== undefined) fragment.expiresAt = expiresAt;
  if (Object.keys(fragment).length > 0) blocks.audio(fragment, out);
}

function applyReasoningDetails(details: unknown[], blocks: BlockTracker, out: CoreEvent[]): void {
  for (const detail of details) {
    if (!isPlainObject(detail)) continue;
    const extras = reasoningExtras(detail);
    switch (detail.type) {
      case 'reasoning.text':
        blocks.reasoning('text', stringOf(detail.text) ?? '', out, extras);
        break;
      case 'reasoning.summary':
        blocks.reasoning('summary', stringOf(detail.summary) ?? '', out, extras);
        break;
      case 'reasoning.encrypted':
        blocks.reasoning('encrypted', stringOf(detail.data) ?? '', out, extras);
        break;
      default:
        break;
    }
  }
}

function reasoningExtras(detail: JsonObject): ReasoningExtras {
  const extras: ReasoningExtras = {};
  const signature = stringOf(detail.signature);
  const format = stringOf(detail.format);
  if (signature !== undefined) extras.signature = signature;
  if (format !== undefined) extras.format = format;
  return extras;
}

function applyToolCall(call: JsonObject, position: number, blocks: BlockTracker, out: CoreEvent[]): void {
  const toolIndex = countOf(call.index) ?? position;
  const fn = objectOf(call.function);
  if (!blocks.hasTool(toolIndex)) {
    const id = stringOf(call.id) ?? `call_${toolIndex}`;
    blocks.toolStart(toolIndex, id, stringOf(fn?.name) ?? '', out);
  }
  const args = stringOf(fn?.arguments);
  if (args) blocks.toolArgs(toolIndex, args, out);
}
