import { watch } from 'node:fs';
import { dirname, resolve } from 'node:path';

export interface WatchOptions {
  /** Quiet time after the last change before `onChange` runs; writers change things in several steps. */
  debounceMs?: number;
  /** A watch that broke (the directory went away, say). */
  onError(error: Error): void;
}

/**
 * Calls `onChange` once things settle after anything in the directory holding `path` changes. The
 * directory is watched, not the file: an editor renames a new file over the old one, and Kubernetes
 * swaps a mounted ConfigMap by renaming a new `..data` symlink over the old one, which leaves the
 * file's own name untouched; `onChange` compares what it reads. Returns the function that stops.
 */
export function watchDirectoryOf(path: string, onChange: () => void, options: WatchOptions): () => void {
  const debounceMs = options.debounceMs ?? 100;
  let timer: NodeJS.Timeout | undefined;
  const watcher = watch(dirname(resolve(path)), () => {
    clearTimeout(timer);
    timer = setTimeout(onChange, debounceMs);
  });
  watcher.on('error', options.onError);
  return () => {
    clearTimeout(timer);
    watcher.close();
  };
}
