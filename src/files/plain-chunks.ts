/** Plaintext bytes in one chunk of a stored value: 1 MiB (the last chunk holds what is left). */
export const CHUNK_BYTES = 1024 * 1024;

/** One chunk of a value being stored, and whether it is the value's last. */
export interface PlainChunk {
  bytes: Buffer;
  final: boolean;
}

/**
 * Cuts a stream of pieces of any size into chunks of exactly `size` bytes (the last one shorter,
 * possibly empty for an empty value), marking the last one: a full chunk is handed on only once a
 * byte after it has arrived, so the mark is always right. One buffer is reused: a chunk's bytes are
 * valid until the next chunk is asked for, which is how sealing and writing use them, so the whole
 * value is never held, only one chunk of it.
 */
export async function* plainChunks(source: AsyncIterable<Uint8Array>, size = CHUNK_BYTES): AsyncGenerator<PlainChunk> {
  const buffer = Buffer.allocUnsafe(size);
  let filled = 0;
  for await (const piece of source) {
    let offset = 0;
    while (offset < piece.length) {
      if (filled === size) {
        yield { bytes: buffer, final: false };
        filled = 0;
      }
      const taken = Math.min(size - filled, piece.length - offset);
      buffer.set(piece.subarray(offset, offset + taken), filled);
      filled += taken;
      offset += taken;
    }
  }
  yield { bytes: buffer.subarray(0, filled), final: true };
}
