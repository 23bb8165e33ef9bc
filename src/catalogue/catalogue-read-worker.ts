import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { modelBatches, NEXT_BATCH, type HandoverMessage, type HandoverRequest } from './catalogue-handover.js';
import { renderListing } from './listing/listing-snapshot.js';
import { parseCatalogueText } from './loader.js';

/**
 * Worker thread entry: parses and validates one catalogue text (the same code `catalogue check`
 * and start-up run, so the same problems with the same paths), renders its listing, and hands both
 * back as catalogue-handover.ts describes.
 */
const READING_NICE = 10;

const port = parentPort;
if (!port) throw new Error('catalogue-read-worker runs as a worker thread');
// Reading is background work: on a busy machine the thread serving requests comes first (about
// nine tenths of a contended core at nice 10; at 19 a reload on a saturated machine took minutes).
// Linux keeps a nice value per thread, so this lowers this thread alone; elsewhere it would lower
// the whole process, so it is left alone there.
if (process.platform === 'linux') setPriority(READING_NICE);
const { text, origin, loadedAt } = workerData as HandoverRequest;
const result = parseCatalogueText(text, origin, loadedAt);
const send = (message: HandoverMessage): void => port.postMessage(message);
if (!result.ok) {
  send({ kind: 'refused', problems: result.problems });
} else {
  const { catalogue, settings } = result;
  const listing = renderListing(catalogue);
  const batches = modelBatches(catalogue.models.values());
  send({ kind: 'head', providers: [...catalogue.providers.values()], settings, loadedAt: catalogue.loadedAt });
  port.on('message', (message: unknown) => {
    if (message !== NEXT_BATCH) return;
    const next = batches.next();
    send(next.done ? { kind: 'end', listing } : { kind: 'models', models: next.value });
  });
}
