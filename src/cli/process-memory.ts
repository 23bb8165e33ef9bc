import type { Session } from 'node:inspector';

/**
 * What `switchyard serve` does with the process's memory: V8's heap growth bounded, and the
 * start-up's leftovers given back before the port opens. Gateways started in-process (tests, bench
 * services) are left as V8 sizes them.
 */

/**
 * How far, in percent, V8 lets the old generation grow past what its last full collection kept
 * before it collects again. Left to itself on a machine with memory to spare, V8 allows 300 %: a
 * gateway keeping about 40 MiB lets its old generation reach about 130 MiB under load, nearly all
 * of it requests' leftovers promoted there, and holds near 300 MiB. At 30 % it collects every
 * second or two under load instead of every fifteen (each about 10 ms of pause, the marking mostly
 * done beside the requests), and stays under 200 MiB (bench/README.md).
 */
export const HEAP_GROWING_PERCENT = 30;

/**
 * The V8 flag bounding the heap's growth, unless the process was started with a heap setting of
 * its own (`node --heap-growing-percent=…` or `--max-old-space-size=…`, the latter also in NODE_OPTIONS):
 * an operator's choice stands.
 */
export function heapGrowthFlag(execArgv: readonly string[], nodeOptions = ''): string | undefined {
  const given = [...execArgv, ...nodeOptions.split(/\s+/)];
  const ownSetting = given.some((flag) => /^--(heap[-_]growing[-_]percent|max[-_]old[-_]space[-_]size|max[-_]heap[-_]size)\b/.test(flag));
  return ownSetting ? undefined : `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
}

/**
 * Gives back what starting up left in V8's heap: one full collection of the kind a low-memory
 * notification asks for, which also shrinks the young generation. Building the catalogue and
 * compiling the modules grow the young generation to its largest (32 MiB, nearly all of it empty
 * once started) and leave about 12 MiB of garbage in the old one; V8's own memory reducer gives
 * them back only after 20 to 30 s of quiet. About 75 ms, once, before the port opens: a started
 * gateway then holds about 115 MiB where it held 155-165 (bench/README.md). A Node built without the
 * inspector skips it, and one the inspector refuses does not stop the start.
 */
export async function releaseStartupMemory(): Promise<void> {
  let session: Session;
  try {
    // imported here: on a Node built without the inspector the import itself throws
    const inspector = await import('node:inspector');
    session = new inspector.Session();
    session.connect();
  } catch {
    return;
  }
  // a collection refused changes nothing but the memory held: the start goes on
  await new Promise<void>((resolve) => session.post('HeapProfiler.collectGarbage', () => resolve()));
  session.disconnect();
}
