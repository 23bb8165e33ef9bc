import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Cuts a long piece of work into slices with a turn of the event loop between them. */
export interface TimeSlices {
  /** Lets other work in when the current slice has run `sliceMs` or more; otherwise resolves at once. */
  pause(): Promise<void>;
}

export function timeSlices(sliceMs: number): TimeSlices {
  let sliceStart = performance.now();
  return {
    async pause() {
      if (performance.now() - sliceStart < sliceMs) return;
      await nextTurn();
      sliceStart = performance.now();
    },
  };
}
