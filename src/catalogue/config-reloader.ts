import { readFile, stat } from 'node:fs/promises';
import type { CatalogueProblem } from './types.js';
import { readCatalogueInWorker, type CatalogueRead, type CatalogueReader } from './worker-catalogue-reader.js';

/** What asked for a reload: the file watcher, the operator's SIGHUP, or another instance of the fleet that reloaded. */
export type ReloadTrigger = 'file change' | 'SIGHUP' | 'another instance';

/** What reading the config file again found. */
export type FileReading =
  | { kind: 'valid'; file: string; trigger: ReloadTrigger; config: Extract<CatalogueRead, { ok: true }> }
  | { kind: 'invalid'; file: string; trigger: ReloadTrigger; problems: CatalogueProblem[] }
  | { kind: 'unreadable'; file: string; trigger: ReloadTrigger; cause: string };

export interface ReaderOptions {
  /** The text the running configuration was read from, so an unchanged file is not read as news. */
  initialText?: string;
  /** How the text is parsed and validated (default: in a worker thread). */
  parse?: CatalogueReader;
  /** How the file is read (default: whole, as UTF-8). */
  read?: (file: string) => Promise<string>;
}

/**
 * What tells one version of the file from another without reading it: where it is stored, its size
 * and its modification and change times (a rename over it, or a swapped symlink, is another inode).
 */
function signatureOf(stats: { dev: number; ino: number; size: number; mtimeMs: number; ctimeMs: number }): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
}

/**
 * Reads the config file again when asked, one reading at a time (a request arriving meanwhile runs
 * once the current one ends), and hands every reading to `receive`, which may take its time (the
 * next reading waits for it). A file change is read only when the file's signature (see
 * `signatureOf`) differs from the one last read, since the watcher reports every change in the
 * directory (a database beside the file changes many times a second, and reading megabytes of
 * catalogue on each would hold up requests); text that is the one last read is skipped too, so a
 * burst of events reads the file once (and so does another instance's signal). SIGHUP always reads it. The text is parsed by `parse`, in a
 * worker thread unless told otherwise.
 */
export class ConfigReloader {
  #lastText: string | undefined;
  #lastSignature: string | undefined;
  #running: Promise<void> | undefined;
  #queued: ReloadTrigger | undefined;
  #stopped = false;
  readonly #parse: CatalogueReader;
  readonly #read: (file: string) => Promise<string>;

  constructor(
    readonly file: string,
    private readonly receive: (reading: FileReading) => void | Promise<void>,
    options: ReaderOptions = {},
  ) {
    this.#lastText = options.initialText;
    this.#parse = options.parse ?? readCatalogueInWorker;
    this.#read = options.read ?? ((file) => readFile(file, 'utf8'));
  }

  /** Reads the file now, or after the reading under way; resolves when this request has been served. */
  async reload(trigger: ReloadTrigger): Promise<void> {
    if (this.#running) {
      if (this.#queued !== 'SIGHUP') this.#queued = trigger;
      await this.#running;
      // the reading under way ended by starting the queued one, which serves this request
      await this.#running;
      return;
    }
    this.#running = this.#readOnce(trigger).finally(() => {
      this.#running = undefined;
      const next = this.#queued;
      this.#queued = undefined;
      if (next && !this.#stopped) void this.reload(next);
    });
    return this.#running;
  }

  /** No reading is handed on from now on. */
  stop(): void {
    this.#stopped = true;
  }

  async #readOnce(trigger: ReloadTrigger): Promise<void> {
    let text: string;
    try {
      // the signature is taken first: a change while reading makes the next event read again
      const signature = signatureOf(await stat(this.file));
      if (trigger !== 'SIGHUP' && signature === this.#lastSignature) return;
      text = await this.#read(this.file);
      this.#lastSignature = signature;
    } catch (error) {
      if (this.#stopped) return;
      const cause = (error as NodeJS.ErrnoException).code ?? String(error);
      await this.receive({ kind: 'unreadable', file: this.file, trigger, cause });
      return;
    }
    if (this.#stopped || (trigger !== 'SIGHUP' && text === this.#lastText)) return;
    this.#lastText = text;
    const result = await this.#parse(text, this.file);
    if (this.#stopped) return;
    if (result.ok) await this.receive({ kind: 'valid', file: this.file, trigger, config: result });
    else await this.receive({ kind: 'invalid', file: this.file, trigger, problems: result.problems });
  }
}
