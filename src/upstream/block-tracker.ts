import type { CoreEvent, ReasoningExtras, ReasoningKind } from '../core/events.js';

type OpenBlock =
  | { kind: 'text' }
  | { kind: 'reasoning'; reasoningKind: ReasoningKind }
  | { kind: 'tool'; toolIndex: number }
  | { kind: 'audio' };

/**
 * Assigns reply positions to blocks and emits their start and end events, so adapters
 * only report "this delta belongs to text / reasoning / tool call N".
 * A block of one kind stays open until another kind interrupts it or the reply finishes.
 */
export class BlockTracker {
  private nextIndex = 0;
  private current: { block: OpenBlock; index: number } | undefined;
  private readonly toolIndexes = new Map<number, number>();

  text(text: string, out: CoreEvent[]): void {
    const index = this.open({ kind: 'text' }, out);
    out.push({ type: 'text.delta', index, text });
  }

  reasoning(kind: ReasoningKind, text: string, out: CoreEvent[], extras: ReasoningExtras = {}): void {
    const index = this.open({ kind: 'reasoning', reasoningKind: kind }, out);
    out.push({ type: 'reasoning.delta', index, kind, text, ...extras });
  }

  refusal(text: string, out: CoreEvent[]): void {
    const index = this.open({ kind: 'text' }, out);
    out.push({ type: 'refusal.delta', index, text });
  }

  /** Starts tool call `toolIndex` (upstream numbering) when it is new; returns its reply position. */
  toolStart(toolIndex: number, id: string, name: string, out: CoreEvent[]): number {
    const index = this.open({ kind: 'tool', toolIndex }, out, { id, name });
    this.toolIndexes.set(toolIndex, index);
    return index;
  }

  toolArgs(toolIndex: number, args: string, out: CoreEvent[]): void {
    const index = this.toolIndexes.get(toolIndex);
    if (index === undefined) return;
    out.push({ type: 'tool.delta', index, toolIndex, args });
  }

  /** A picture arrives whole: it takes its own position. */
  image(url: string, out: CoreEvent[]): void {
    this.closeAll(out);
    out.push({ type: 'image', index: this.nextIndex++, url });
  }

  audio(fragment: Omit<Extract<CoreEvent, { type: 'audio.delta' }>, 'type' | 'index'>, out: CoreEvent[]): void {
    const index = this.open({ kind: 'audio' }, out);
    out.push({ type: 'audio.delta', index, ...fragment });
  }

  hasTool(toolIndex: number): boolean {
    return this.toolIndexes.has(toolIndex);
  }

  closeAll(out: CoreEvent[]): void {
    if (!this.current) return;
    out.push(endEvent(this.current.block, this.current.index));
    this.current = undefined;
  }

  private open(block: OpenBlock, out: CoreEvent[], tool?: { id: string; name: string }): number {
    if (this.current && sameBlock(this.current.block, block)) return this.current.index;
    this.closeAll(out);
    const index = this.nextIndex++;
    this.current = { block, index };
    if (block.kind === 'text') out.push({ type: 'text.start', index });
    else if (block.kind === 'reasoning') out.push({ type: 'reasoning.start', index, kind: block.reasoningKind });
    else if (block.kind === 'tool') out.push({ type: 'tool.start', index, toolIndex: block.toolIndex, id: tool?.id ?? '', name: tool?.name ?? '' });
    return index;
  }
}

function sameBlock(a: OpenBlock, b: OpenBlock): boolean {
  if (a.kind === 'audio' || b.kind === 'audio') return a.kind === b.kind;
  if (a.kind === 'tool' || b.kind === 'tool') {
    return a.kind === 'tool' && b.kind === 'tool' && a.toolIndex === b.toolIndex;
  }
  if (a.kind === 'reasoning' || b.kind === 'reasoning') {
    return a.kind === 'reasoning' && b.kind === 'reasoning' && a.reasoningKind === b.reasoningKind;
  }
  return true;
}

function endEvent(block: OpenBlock, index: number): CoreEvent {
  switch (block.kind) {
    case 'text':
      return { type: 'text.end', index };
    case 'reasoning':
      return { type: 'reasoning.end', index };
    case 'tool':
      return { type: 'tool.end', index, toolIndex: block.toolIndex };
    case 'audio':
      return { type: 'audio.end', index };
  }
}
