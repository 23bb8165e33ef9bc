import { describe, expect, test } from 'vitest';
import { datacenterIn } from '../../../src/catalogue/listing/regions.js';
import { ownEntry } from '../../../src/core/own-entry.js';
import { readAnthropicError } from '../../../src/upstream/anthropic/error.js';
import { mapStopReason } from '../../../src/upstream/anthropic/usage.js';
import { mapFinishReason } from '../../../src/upstream/openai/usage.js';

/** Names every plain object answers from its prototype. */
const INHERITED = ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__'];

describe('a fixed table read with a key from outside', () => {
  test('answers its own entries only', () => {
    const table: Readonly<Record<string, number>> = { stop: 1 };
    expect(ownEntry(table, 'stop')).toBe(1);
    for (const key of INHERITED) expect(ownEntry(table, key)).toBeUndefined();
  });

  test('a region filter naming an inherited name matches no datacenter', () => {
    for (const key of INHERITED) expect(datacenterIn('de', key)).toBe(false);
    expect(datacenterIn('de', 'eu')).toBe(true);
  });

  test('an upstream stop reason or error type naming an inherited name reads as an unknown one', () => {
    for (const key of INHERITED) {
      expect(mapFinishReason(key)).toBe('stop');
      expect(mapStopReason(key)).toBe('stop');
      expect(readAnthropicError({ type: key, message: 'odd' }).status).toBeUndefined();
    }
    expect(mapFinishReason('length')).toBe('length');
    expect(readAnthropicError({ type: 'overloaded_error', message: 'busy' }).status).toBe(529);
  });
});
