import { randomFillSync } from 'node:crypto';

const POOL_BYTES = 4096;
const pool = Buffer.allocUnsafe(POOL_BYTES);
let offset = POOL_BYTES;

/**
 * `bytes` random bytes from the system CSPRNG as hex, drawn from a pool refilled 4 KiB at a time:
 * ids are minted several times per request, and one call into the generator per id costs more
 * than the rest of minting it.
 */
export function randomHex(bytes: number): string {
  if (bytes > POOL_BYTES) throw new RangeError(`at most ${POOL_BYTES} random bytes at a time`);
  if (offset + bytes > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const hex = pool.toString('hex', offset, offset + bytes);
  offset += bytes;
  return hex;
}
