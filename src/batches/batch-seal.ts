import { GatewayError, INTERNAL_ERROR_MESSAGE } from '../core/errors.js';
import type { DataKey, KeyStore } from '../files/key-store.js';
import { IV_BYTES, openRecord, sealRecord, TAG_BYTES } from '../files/sealing.js';
import type { ResultLine } from './result-line.js';

/**
 * The seal of one batch's requests and replies: its own data key (in the key store, destroyed within
 * 50 hours of the submission), each value bound to the batch, its position and what it is, so no
 * sealed value can be read in another's place.
 */
export class BatchSeal {
  constructor(
    private readonly key: DataKey,
    private readonly batchId: string,
  ) {}

  static async open(keys: KeyStore, keyId: string, batchId: string): Promise<BatchSeal> {
    const key = await keys.read(keyId);
    // the key outlives the batch's window and its results: gone means the batch can no longer be read
    if (!key) throw new GatewayError('server', INTERNAL_ERROR_MESSAGE);
    return new BatchSeal(key, batchId);
  }

  sealBody(seq: number, body: unknown): Buffer {
    return sealRecord(this.key.key, Buffer.from(JSON.stringify(body), 'utf8'), this.#context(seq, 'body'));
  }

  openBody(seq: number, sealed: Buffer): unknown {
    return JSON.parse(openRecord(this.key.key, sealed, this.#context(seq, 'body')).toString('utf8'));
  }

  /** A result line sealed as its JSON text (what the results file will hold). */
  sealLine(seq: number, line: ResultLine): Buffer {
    return sealRecord(this.key.key, Buffer.from(JSON.stringify(line), 'utf8'), this.#context(seq, 'line'));
  }

  /** The length of what `sealed` holds, without opening it. */
  static plainLength(sealed: Buffer): number {
    return sealed.length - IV_BYTES - TAG_BYTES;
  }

  /** The JSON text of a sealed result line. */
  openLine(seq: number, sealed: Buffer): string {
    return openRecord(this.key.key, sealed, this.#context(seq, 'line')).toString('utf8');
  }

  #context(seq: number, what: 'body' | 'line'): string {
    return `batch ${this.batchId} request ${seq} ${what}`;
  }
}
