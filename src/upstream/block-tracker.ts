import type { CoreEvent, ReasoningExtras, ReasoningKind } from '../core/events.js';

type OpenBlock =
  | { kind: 'text' }
  | { kind: 'reasoning'; reasoningKind: ReasoningKind }
  | { kind: 'tool'; toolIndex: number }
  | { kind: 'audio' };

/** A tool call whose header arrived while another call was still open: held back, in arrival order. */
interface HeldCall {
  id: string;
  name: string;
  fragments: string[];
}

/**
 * Assigns reply positions to blocks and emits their start and end events, so adapters
 * only report "this delta belongs to text / reasoning / tool call N".
 * A block of one kind stays open until another kind interrupts it or the reply finishes.
 *
 * At most one block is open at a time, and a block's deltas always fall between its start and its
 * end: the messages dialect's wire (`content_block_*`) cannot interleave blocks, and every encoder
 * may rely on that. Parallel tool calls need care, because the OpenAI wire keys argument fragments
 * by call `index` and may send every call's header before any argument (call 0 header, call 1
 * header, call 0 arguments, call 1 arguments), or interleave the fragments in any order. Ending
 * call 0 when call 1's header arrives would leave call 0's arguments after its end, where no block
 * can take them. So a new call's header ends the open call only when that call's arguments are
 * already a complete JSON value (no fragment can follow one without breaking it); otherwise the new
 * call is held back, header and fragments, while the open call keeps streaming, and held calls are
 * released in order, each whole, when the open call ends: at the finish, when another kind of block
 * interrupts, or when a later header finds the open call complete. The ordinary sequential case
 * streams every call live; the interleaved case streams the first call live and the others at the
 * end, with every fragment in its place. A fragment for a call that has already ended (possible only
 * after another kind of block interrupted it, or as trailing bytes after complete JSON) has no block
 * to go to and is dropped.
 */
export class BlockTracker {
  private nextIndex = 0;
  private current: { block: OpenBlock; index: number } | undefined;
  private readonly toolIndexes = new Map<number, number>();
  /** The arguments the open tool call has streamed so far. */
  private currentArgs = '';
  private readonly held = new Map<number, HeldCall>();

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

  /**
   * Starts tool call `toolIndex` (upstream numbering) when it is new: at once, or held back while
   * an earlier call may still receive arguments (see the class comment).
   */
  toolStart(toolIndex: number, id: string, name: string, out: CoreEvent[]): void {
    if (this.hasTool(toolIndex)) return;
    this.releaseCompleteCalls(out);
    if (this.current?.block.kind === 'tool' && !isCompleteJson(this.currentArgs)) {
      this.held.set(toolIndex, { id, name, fragments: [] });
      return;
    }
    this.closeAll(out);
    this.startTool(toolIndex, id, name, out);
  }

  toolArgs(toolIndex: number, args: string, out: CoreEvent[]): void {
    const held = this.held.get(toolIndex);
    if (held) {
      held.fragments.push(args);
      return;
    }
    const index = this.toolIndexes.get(toolIndex);
    const current = this.current;
    if (index === undefined || current?.index !== index) return;
    this.currentArgs += args;
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

  /** True once call `toolIndex` has been seen, whether it streams, was held back or has ended. */
  hasTool(toolIndex: number): boolean {
    return this.toolIndexes.has(toolIndex) || this.held.has(toolIndex);
  }

  /** Ends the open block, then releases every held tool call, each whole, in arrival order. */
  closeAll(out: CoreEvent[]): void {
    this.closeCurrent(out);
    for (const [toolIndex, call] of this.held) {
      this.held.delete(toolIndex);
      this.startTool(toolIndex, call.id, call.name, out);
      for (const args of call.fragments) this.toolArgs(toolIndex, args, out);
      this.closeCurrent(out);
    }
  }

  /** While the open call's arguments are complete, it ends and the next held call takes its place. */
  private releaseCompleteCalls(out: CoreEvent[]): void {
    for (const [toolIndex, call] of this.held) {
      if (!isCompleteJson(this.currentArgs)) return;
      this.held.delete(toolIndex);
      this.closeCurrent(out);
      this.startTool(toolIndex, call.id, call.name, out);
      for (const args of call.fragments) this.toolArgs(toolIndex, args, out);
    }
  }

  /** Starts a call's block; whatever was open has been closed by the caller. */
  private startTool(toolIndex: number, id: string, name: string, out: CoreEvent[]): void {
    this.toolIndexes.set(toolIndex, this.begin({ kind: 'tool', toolIndex }, out, { id, name }));
  }

  private closeCurrent(out: CoreEvent[]): void {
    if (!this.current) return;
    out.push(endEvent(this.current.block, this.current.index));
    this.current = undefined;
    this.currentArgs = '';
  }

  /** The open block when it is of the same kind; else everything open ends and a new block starts. */
  private open(block: OpenBlock, out: CoreEvent[]): number {
    if (this.current && sameBlock(this.current.block, block)) return this.current.index;
    this.closeAll(out);
    return this.begin(block, out);
  }

  private begin(block: OpenBlock, out: CoreEvent[], tool?: { id: string; name: string }): number {
    const index = this.nextIndex++;
    this.current = { block, index };
    if (block.kind === 'text') out.push({ type: 'text.start', index });
    else if (block.kind === 'reasoning') out.push({ type: 'reasoning.start', index, kind: block.reasoningKind });
    else if (block.kind === 'tool') out.push({ type: 'tool.start', index, toolIndex: block.toolIndex, id: tool?.id ?? '', name: tool?.name ?? '' });
    return index;
  }
}

/**
 * Whether a call's arguments so far are a whole JSON value. Checked once per new call header (not
 * per fragment), so the parse stays off the per-frame path.
 */
function isCompleteJson(args: string): boolean {
  if (args.trim() === '') return false;
  try {
    JSON.parse(args);
    return true;
  } catch {
    return false;
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
