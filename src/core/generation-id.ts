import { randomHex } from './random-hex.js';

/** A fresh generation id: `gen-` followed by a time prefix and random hex, sortable by creation. */
export function newGenerationId(now = Date.now()): string {
  return `gen-${now.toString(36)}${randomHex(10)}`;
}
