import { assertNever, type CoreEvent, type CoreUsage, type FinishReason, type ReasoningKind, type TokenLogprob } from './events.js';

export interface CollectedReasoning {
  index: number;
  kind: ReasoningKind;
  text: string;
  signature?: string;
  format?: string;
}

export interface CollectedToolCall {
  index: number;
  id: string;
  name: string;
  arguments: string;
}

export interface CollectedAudio {
  id?: string;
  data: string;
  transcript: string;
  expiresAt?: number;
}

/** A whole reply, folded once from its events; every dialect's reply encoder reads this. */
export interface CollectedReply {
  upstreamId?: string;
  text: string;
  hasText: boolean;
  refusal?: string;
  reasoning: CollectedReasoning[];
  toolCalls: CollectedToolCall[];
  images: { index: number; url: string }[];
  audio?: CollectedAudio;
  finish?: FinishReason;
  nativeFinish: string | null;
  /** The stop sequence that ended the answer, where the provider named it. */
  stopSequence?: string;
  usage?: CoreUsage;
  /** Token log-probabilities of the answer text, where the endpoint reported them. */
  logprobs?: TokenLogprob[];
}

export function emptyReply(): CollectedReply {
  return { text: '', hasText: false, reasoning: [], toolCalls: [], images: [], nativeFinish: null };
}

/** Folds one event into the reply (mutating it); errors are not part of a reply. */
export function collectEvent(reply: CollectedReply, event: CoreEvent): void {
  switch (event.type) {
    case 'meta':
      if (event.upstreamId) reply.upstreamId = event.upstreamId;
      return;
    case 'text.delta':
      reply.text += event.text;
      reply.hasText = true;
      return;
    case 'refusal.delta':
      reply.refusal = (reply.refusal ?? '') + event.text;
      return;
    case 'reasoning.start':
      reply.reasoning.push({ index: event.index, kind: event.kind, text: '' });
      return;
    case 'reasoning.delta':
      appendReasoning(reply, event);
      return;
    case 'tool.start':
      reply.toolCalls.push({ index: event.toolIndex, id: event.id, name: event.name, arguments: '' });
      return;
    case 'tool.delta': {
      const call = reply.toolCalls.find((candidate) => candidate.index === event.toolIndex);
      if (call) call.arguments += event.args;
      return;
    }
    case 'image':
      reply.images.push({ index: event.index, url: event.url });
      return;
    case 'audio.delta':
      appendAudio(reply, event);
      return;
    case 'finish':
      reply.finish = event.reason;
      reply.nativeFinish = event.raw;
      if (event.stopSequence !== undefined) reply.stopSequence = event.stopSequence;
      return;
    case 'usage':
      reply.usage = event.usage;
      return;
    case 'logprobs':
      reply.logprobs = [...(reply.logprobs ?? []), ...event.tokens];
      return;
    case 'text.start':
    case 'text.end':
    case 'reasoning.end':
    case 'tool.end':
    case 'audio.end':
    case 'tool.dispatch':
    case 'error':
      return;
    default:
      assertNever(event);
  }
}

export function collectReply(events: Iterable<CoreEvent>): CollectedReply {
  const reply = emptyReply();
  for (const event of events) collectEvent(reply, event);
  return reply;
}

function appendReasoning(reply: CollectedReply, event: Extract<CoreEvent, { type: 'reasoning.delta' }>): void {
  let entry = reply.reasoning.find((candidate) => candidate.index === event.index);
  if (!entry) {
    entry = { index: event.index, kind: event.kind, text: '' };
    reply.reasoning.push(entry);
  }
  entry.text += event.text;
  if (event.signature !== undefined) entry.signature = event.signature;
  if (event.format !== undefined) entry.format = event.format;
}

function appendAudio(reply: CollectedReply, event: Extract<CoreEvent, { type: 'audio.delta' }>): void {
  const audio = reply.audio ?? { data: '', transcript: '' };
  if (event.id) audio.id = event.id;
  if (event.data) audio.data += event.data;
  if (event.transcript) audio.transcript += event.transcript;
  if (event.expiresAt !== undefined) audio.expiresAt = event.expiresAt;
  reply.audio = audio;
}
