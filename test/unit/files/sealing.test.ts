import { describe, expect, it } from 'vitest';
import { plainChunks } from '../../../src/files/plain-chunks.js';
import { BrokenSealError, IV_BYTES, TAG_BYTES, newKey, openRecord, seal, sealRecord, unseal } from '../../../src/files/sealing.js';

async function* pieces(...sizes: number[]): AsyncGenerator<Uint8Array> {
  let next = 0;
  for (const size of sizes) {
    yield Uint8Array.from({ length: size }, () => next++ % 256);
  }
}

async function chunksOf(source: AsyncIterable<Uint8Array>, size: number): Promise<{ bytes: number[]; final: boolean }[]> {
  const chunks = [];
  for await (const chunk of plainChunks(source, size)) chunks.push({ bytes: [...chunk.bytes], final: chunk.final });
  return chunks;
}

describe('sealed records', () => {
  it('a record opens with its key and its context, and its sealed bytes show nothing of it', () => {
    const key = newKey();
    const plaintext = Buffer.from('{"custom_id":"a","body":{}}');
    const sealed = sealRecord(key, plaintext, 'batch:1:request:0');
    expect(sealed.length).toBe(IV_BYTES + plaintext.length + TAG_BYTES);
    expect(sealed.includes(plaintext)).toBe(false);
    expect(openRecord(key, sealed, 'batch:1:request:0')).toEqual(plaintext);
  });

  it('two sealings of the same bytes differ: every sealing takes a fresh IV', () => {
    const key = newKey();
    expect(sealRecord(key, Buffer.from('same'), 'x').equals(sealRecord(key, Buffer.from('same'), 'x'))).toBe(false);
  });

  it('another key or another context is refused', () => {
    const key = newKey();
    const sealed = sealRecord(key, Buffer.from('secret'), 'record:1');
    expect(() => openRecord(newKey(), sealed, 'record:1')).toThrow(BrokenSealError);
    expect(() => openRecord(key, sealed, 'record:2')).toThrow(BrokenSealError);
  });

  it('a record tampered with anywhere (IV, ciphertext or tag), or cut short, is refused', () => {
    const key = newKey();
    const sealed = sealRecord(key, Buffer.from('the bytes of a reply'), 'reply');
    for (const position of [0, IV_BYTES + 3, sealed.length - 1]) {
      const tampered = Buffer.from(sealed);
      tampered[position] = (tampered[position] ?? 0) ^ 1;
      expect(() => openRecord(key, tampered, 'reply')).toThrow(BrokenSealError);
    }
    expect(() => openRecord(key, sealed.subarray(0, sealed.length - 1), 'reply')).toThrow(BrokenSealError);
    expect(() => openRecord(key, sealed.subarray(0, IV_BYTES), 'reply')).toThrow(BrokenSealError);
  });

  it('sealed parts open only whole and with their context', () => {
    const key = newKey();
    const context = Buffer.from('data-key:dk_1');
    const parts = seal(key, Buffer.from('a data key'), context);
    expect(unseal(key, parts, context, 'dk_1').toString()).toBe('a data key');
    expect(() => unseal(key, parts, Buffer.from('data-key:dk_2'), 'dk_2')).toThrow(/dk_2: the seal does not open/);
    expect(() => unseal(key, { ...parts, tag: parts.tag.subarray(0, 8) }, context, 'dk_1')).toThrow(BrokenSealError);
  });
});

describe('plain chunks', () => {
  it('pieces of any size are cut into chunks of the size, only the last one marked last', async () => {
    const chunks = await chunksOf(pieces(3, 5, 1), 4);
    expect(chunks.map((chunk) => [chunk.bytes.length, chunk.final])).toEqual([[4, false], [4, false], [1, true]]);
    expect(chunks.flatMap((chunk) => chunk.bytes)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('a value filling its chunks exactly ends with its last full chunk marked last', async () => {
    expect((await chunksOf(pieces(8), 4)).map((chunk) => [chunk.bytes.length, chunk.final])).toEqual([[4, false], [4, true]]);
  });

  it('an empty value is one empty last chunk', async () => {
    expect(await chunksOf(pieces(), 4)).toEqual([{ bytes: [], final: true }]);
    expect(await chunksOf(pieces(0, 0), 4)).toEqual([{ bytes: [], final: true }]);
  });
});
