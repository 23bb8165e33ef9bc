import { gzip as gzipCallback, gzipSync } from 'node:zlib';
import { promisify } from 'node:util';

const gzipAsync = promisify(gzipCallback);

/**
 * A large JSON reply written once and sent many times (the whole model list, say): its text, its
 * bytes, and its bytes gzipped, each made on first use and kept. `compress()` makes the gzipped
 * bytes ahead of the first read, in zlib's thread pool, so no request waits for them.
 */
export class PreparedJson {
  #bytes: Buffer | undefined;
  #gzipped: Buffer | undefined;

  constructor(readonly text: string) {}

  get bytes(): Buffer {
    this.#bytes ??= Buffer.from(this.text);
    return this.#bytes;
  }

  get gzipped(): Buffer {
    this.#gzipped ??= gzipSync(this.bytes);
    return this.#gzipped;
  }

  async compress(): Promise<void> {
    if (this.#gzipped) return;
    const gzipped = await gzipAsync(this.bytes);
    this.#gzipped ??= gzipped;
  }
}
