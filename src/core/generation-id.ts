import { randomHex } from './random-hex.js';

/** A fresh generation id: `gen-` followed by a time prefix and random hex, sortable by creation. */
export function newGenerationId(now = Date.now()): string {
  return `gen-${now.toString(36)}${randomHex(10)}`;
}

const GENERATION_ID = /^gen-[0-9a-z]{1,64}$/;

/** Whether `id` has the shape newGenerationId gives: any other cannot name a record. */
export function isGenerationId(id: string): boolean {
  return GENERATION_ID.test(id);
}
