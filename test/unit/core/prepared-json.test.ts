import { gunzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { PreparedJson } from '../../../src/core/prepared-json.js';

const TEXT = JSON.stringify({ data: Array.from({ length: 500 }, (_, index) => ({ id: `acme/model-${index}`, name: 'Modèle — ünïcode' })) });

describe('a prepared JSON reply', () => {
  test('its bytes are the UTF-8 text and its gzipped bytes inflate to the same text', () => {
    const prepared = new PreparedJson(TEXT);
    expect(prepared.bytes.toString('utf8')).toBe(TEXT);
    expect(gunzipSync(prepared.gzipped).toString('utf8')).toBe(TEXT);
  });

  test('each encoding is made once and kept', () => {
    const prepared = new PreparedJson(TEXT);
    expect(prepared.bytes).toBe(prepared.bytes);
    expect(prepared.gzipped).toBe(prepared.gzipped);
  });

  test('compressed ahead of the first read, the first read finds the gzipped bytes ready, and compressing again keeps them', async () => {
    const prepared = new PreparedJson(TEXT);
    await prepared.compress();
    const ready = prepared.gzipped;
    expect(gunzipSync(ready).toString('utf8')).toBe(TEXT);
    await prepared.compress();
    expect(prepared.gzipped).toBe(ready);
  });
});
