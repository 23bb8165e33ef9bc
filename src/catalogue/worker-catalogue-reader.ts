import { extname } from 'node:path';
import { Worker } from 'node:worker_threads';
import { CatalogueAssembly } from './index-builder.js';
import { NEXT_BATCH, relinkProviders, type HandoverMessage, type HandoverRequest } from './catalogue-handover.js';
import type { RenderedListing } from './listing/listing-snapshot.js';
import type { CatalogueResult } from './loader.js';
import { collectYoungGeneration } from './young-collection.js';

/** A catalogue read, with its listing's text when the reader rendered it too. */
export type CatalogueRead = CatalogueResult & { rendered?: RenderedListing };

/** Parses and validates catalogue text, as `parseCatalogueText` does, without holding up this thread. */
export type CatalogueReader = (text: string, origin: string) => Promise<CatalogueRead>;

// the entry beside this module, in the same form (.js when built, .ts when run from the sources)
const WORKER_ENTRY = new URL(`./catalogue-read-worker${extname(new URL(import.meta.url).pathname)}`, import.meta.url);

/**
 * Reads catalogue text in a worker thread: parsing the YAML and validating thousands of models
 * takes seconds of CPU, which on this thread would hold up every request in flight. What comes
 * back is taken in a batch of models at a time, each batch asked for once the previous one is
 * indexed, so requests are served between batches, and the young objects collected after each
 * (so no collection pause copies more than a batch); the listing's text comes rendered. A worker
 * that fails is one problem naming `origin`; the running catalogue stays.
 */
export const readCatalogueInWorker: CatalogueReader = (text, origin) => {
  const request: HandoverRequest = { text, origin, loadedAt: Date.now() };
  const worker = new Worker(WORKER_ENTRY, { workerData: request });
  return new Promise<CatalogueRead>((resolve) => {
    let assembly: CatalogueAssembly | undefined;
    let settings: Extract<HandoverMessage, { kind: 'head' }>['settings'] = {};
    const finish = (result: CatalogueRead): void => {
      worker.removeAllListeners();
      void worker.terminate();
      resolve(result);
    };
    worker.on('message', (message: HandoverMessage) => {
      switch (message.kind) {
        case 'refused':
          return finish({ ok: false, problems: message.problems });
        case 'head':
          assembly = new CatalogueAssembly(new Map(message.providers.map((provider) => [provider.slug, provider])), message.loadedAt);
          settings = message.settings;
          return worker.postMessage(NEXT_BATCH);
        case 'models':
          if (!assembly) return undefined;
          for (const model of message.models) {
            relinkProviders(model, assembly.providers);
            assembly.add(model);
          }
          // a task of its own: the requests that arrived while the batch was taken in go first,
          // and no pause is the batch and the collection together
          return void setImmediate(() => {
            collectYoungGeneration();
            worker.postMessage(NEXT_BATCH);
          });
        case 'end':
          return assembly ? finish({ ok: true, catalogue: assembly.finish(), settings, rendered: message.listing }) : undefined;
        default: {
          const unhandled: never = message;
          throw new Error(`unhandled catalogue handover ${JSON.stringify(unhandled)}`);
        }
      }
    });
    worker.on('error', (error) => finish({ ok: false, problems: [{ path: origin, message: `could not be read (${error.message})` }] }));
    worker.on('exit', (code) => finish({ ok: false, problems: [{ path: origin, message: `could not be read (the reading thread ended with code ${code})` }] }));
  });
};
