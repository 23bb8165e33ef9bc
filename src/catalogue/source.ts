import type { Catalogue } from './types.js';

/** Where the current catalogue snapshot is read from; a reload swaps it atomically. */
export interface CatalogueSource {
  current(): Catalogue;
}
