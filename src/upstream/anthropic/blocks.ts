import type { CoreEvent, ReasoningExtras } from '../../core/events.js';
import { BlockTracker } from '../block-tracker.js';
import { objectOf, stringOf, type JsonObject } from '../json-guards.js';

/** The originating format named on reasoning read from the Anthropic wire. */
export const ANTHROPIC_REASONING_FORMAT = 'anthropic-claude-v1';

interface OpenBlock {
  kind: 'text' | 'thinking' | 'redacted_thinking' | 'tool_use' | 'other';
  toolIndex?: number;
  argsSent?: boolean;
}

/**
 * Reads Anthropic content blocks (whole, or streamed as start/delta/stop by their wire `index`)
 * into core block events. Each wire block becomes its own core block; tool calls are numbered
 * in order of appearance. Block types the gateway has no use for (server tools) are skipped.
 */
export class AnthropicBlockReader {
  private readonly blocks = new BlockTracker();
  private readonly open = new Map<number, OpenBlock>();
  private nextTool = 0;

  start(index: number, block: JsonObject, out: CoreEvent[]): void {
    const kind = blockKind(block.type);
    const entry: OpenBlock = { kind };
    this.open.set(index, entry);
    if (kind === 'text') this.text(stringOf(block.text), out);
    else if (kind === 'thinking') this.thinking(stringOf(block.thinking), stringOf(block.signature), out);
    else if (kind === 'redacted_thinking') this.redacted(stringOf(block.data), out);
    else if (kind === 'tool_use') {
      entry.toolIndex = this.nextTool++;
      this.blocks.toolStart(entry.toolIndex, stringOf(block.id) ?? `toolu_${entry.toolIndex}`, stringOf(block.name) ?? '', out);
    }
  }

  delta(index: number, delta: JsonObject, out: CoreEvent[]): void {
    const entry = this.open.get(index);
    if (!entry) return;
    switch (delta.type) {
      case 'text_delta':
        if (entry.kind === 'text') this.text(stringOf(delta.text), out);
        return;
      case 'thinking_delta':
        if (entry.kind === 'thinking') this.thinking(stringOf(delta.thinking), undefined, out);
        return;
      case 'signature_delta':
        if (entry.kind === 'thinking') this.thinking('', stringOf(delta.signature), out);
        return;
      case 'input_json_delta': {
        const partial = stringOf(delta.partial_json);
        if (entry.kind !== 'tool_use' || entry.toolIndex === undefined || !partial) return;
        entry.argsSent = true;
        this.blocks.toolArgs(entry.toolIndex, partial, out);
        return;
      }
      default:
        return;
    }
  }

  /** Ends a block; a tool call that streamed no arguments takes `{}`, as its input was empty. */
  stop(index: number, out: CoreEvent[]): void {
    const entry = this.open.get(index);
    if (!entry) return;
    this.open.delete(index);
    if (entry.kind === 'tool_use' && entry.toolIndex !== undefined && !entry.argsSent) this.blocks.toolArgs(entry.toolIndex, '{}', out);
    this.blocks.closeAll(out);
  }

  /** A whole block of a non-streamed reply. */
  whole(block: JsonObject, out: CoreEvent[]): void {
    const index = -1;
    this.start(index, block, out);
    const entry = this.open.get(index);
    if (entry?.kind === 'tool_use' && entry.toolIndex !== undefined) {
      entry.argsSent = true;
      this.blocks.toolArgs(entry.toolIndex, JSON.stringify(objectOf(block.input) ?? {}), out);
    }
    this.stop(index, out);
  }

  /** Closes whatever the stream left open. */
  closeAll(out: CoreEvent[]): void {
    this.open.clear();
    this.blocks.closeAll(out);
  }

  private text(text: string | undefined, out: CoreEvent[]): void {
    if (text) this.blocks.text(text, out);
  }

  private thinking(text: string | undefined, signature: string | undefined, out: CoreEvent[]): void {
    if (!text && !signature) return;
    const extras: ReasoningExtras = { format: ANTHROPIC_REASONING_FORMAT };
    if (signature) extras.signature = signature;
    this.blocks.reasoning('text', text ?? '', out, extras);
  }

  private redacted(data: string | undefined, out: CoreEvent[]): void {
    if (data) this.blocks.reasoning('encrypted', data, out, { format: ANTHROPIC_REASONING_FORMAT });
  }
}

function blockKind(type: unknown): OpenBlock['kind'] {
  return type === 'text' || type === 'thinking' || type === 'redacted_thinking' || type === 'tool_use' ? type : 'other';
}
