import { closeSync, openSync, readdirSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { PendingGenerationRow } from './ledger-tables.js';
import type { DeliveredSoFar } from './types.js';

/** A journal file takes new marks until it is about this long; the next go to a new one. */
const FILE_BYTES = 4 * 1024 * 1024;

/** One file of the journal: its descriptor, what was written to it, and how many of its streams are still open. */
interface JournalFile {
  path: string;
  fd: number;
  bytes: number;
  open: number;
  removed: boolean;
}

/** Lines queued for one write, by file, and the promise their writers wait on. */
class QueuedLines {
  readonly lines = new Map<JournalFile, string>();
  readonly written: Promise<void>;
  resolve: () => void = () => undefined;
  reject: (error: unknown) => void = () => undefined;

  constructor() {
    this.written = new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }
}

interface OpenStream {
  /** The pending generation as its last checkpoint left it. */
  row: PendingGenerationRow;
  file: JournalFile | null;
}

/**
 * The commit marks of the streams a single SQLite process serves, kept in files beside its
 * database rather than in it. A stream committed at an endpoint must be billed from its checkpoints
 * if the process dies before it settles; its hold is kept in memory (process-holds.ts), so nothing
 * of it is in the database yet. Its pending generation is appended to the journal before its first
 * byte (one line; the lines of one turn of the event loop in one write), and its checkpoints after
 * it; its settlement, written in the database, closes it. A mark so costs no transaction of its own, which the stream's first byte
 * waited for, and the settlement writes the record once rather than over a pending row.
 *
 * Written with `write(2)` like SQLite's own log with `synchronous = NORMAL`, a line outlives the
 * process as the database's commits do. When the process is gone, `importStreamJournal` turns its
 * open marks into pending rows stamped with its instance, which the instance reaper then settles
 * as it settles any gone instance's.
 *
 * The files are `<database>-streams-<instance>.<n>`. A file is removed once every stream marked in
 * it closed and a newer one takes the marks; a stopped process leaves none. With no file (an
 * in-memory database, which dies with the process anyway) the marks are kept in memory only.
 */
export class StreamJournal {
  readonly #open = new Map<string, OpenStream>();
  #current: JournalFile | null = null;
  #files = 0;
  /** The lines queued for this turn's write, by file, and what resolves once they are written. */
  #writing: QueuedLines | null = null;

  /**
   * `prefix`: the files' path up to their number (`streamJournalPrefix`); null keeps the marks in
   * memory only. `fileBytes`: how long a file grows before the next marks go to a new one.
   */
  constructor(
    private readonly prefix: string | null,
    private readonly fileBytes = FILE_BYTES,
  ) {}

  /**
   * Marks the stream of `row` committed. Resolves once its line is written: the marks and
   * checkpoints of one turn of the event loop are written together, one system call a file.
   * Rejects when it cannot be: the stream is then marked in memory only.
   */
  mark(row: PendingGenerationRow): Promise<void> {
    const file = this.#fileForMark();
    this.#open.set(row.id, { row, file });
    if (!file) return Promise.resolve();
    file.open += 1;
    return this.#append(file, `${JSON.stringify({ mark: row })}\n`);
  }

  /**
   * Records what the stream delivered so far, resolving once written (as `mark`); undefined when
   * the stream is not marked here (not a stream of this journal).
   */
  checkpoint(generationId: string, delivered: DeliveredSoFar): Promise<void> | undefined {
    const stream = this.#open.get(generationId);
    if (!stream) return undefined;
    const { row, file } = stream;
    // counts only grow: a checkpoint never overwrites a later one
    if (row.completion_tokens !== null && row.completion_tokens !== undefined && row.completion_tokens >= delivered.completionTokens) return Promise.resolve();
    const promptTokens = delivered.promptTokens ?? null;
    row.endpoint_id = delivered.endpointId;
    row.completion_tokens = delivered.completionTokens;
    row.prompt_tokens = promptTokens;
    if (!file) return Promise.resolve();
    return this.#append(file, `${JSON.stringify({ checkpoint: [generationId, delivered.endpointId, delivered.completionTokens, promptTokens] })}\n`);
  }

  /** The stream settled (its record is committed in the database): its mark is no longer needed. */
  close(generationId: string): void {
    const stream = this.#open.get(generationId);
    if (!stream) return;
    this.#open.delete(generationId);
    const { file } = stream;
    if (!file) return;
    file.open -= 1;
    if (file.open === 0 && file !== this.#current) this.#remove(file);
  }

  /** The pending generation of an open stream, as its last checkpoint left it. */
  pending(generationId: string): PendingGenerationRow | undefined {
    return this.#open.get(generationId)?.row;
  }

  /** The streams still open. */
  openRows(): PendingGenerationRow[] {
    return [...this.#open.values()].map((stream) => stream.row);
  }

  /** Closes the files and removes them; call once no stream is open, or once those open are recorded elsewhere. */
  stop(): void {
    const files = new Set([...this.#open.values()].map((stream) => stream.file));
    if (this.#current) files.add(this.#current);
    for (const file of files) if (file) this.#remove(file);
    this.#open.clear();
    this.#current = null;
  }

  #fileForMark(): JournalFile | null {
    if (this.prefix === null) return null;
    const current = this.#current;
    if (current && current.bytes < this.fileBytes) return current;
    const path = `${this.prefix}${this.#files}`;
    this.#files += 1;
    this.#current = { path, fd: openSync(path, 'a'), bytes: 0, open: 0, removed: false };
    if (current && current.open === 0) this.#remove(current);
    return this.#current;
  }

  /** Queues `line` for this turn's write of `file`; resolves once it is written. */
  #append(file: JournalFile, line: string): Promise<void> {
    // characters for bytes: near enough to decide when the next file starts
    file.bytes += line.length;
    if (!this.#writing) {
      this.#writing = new QueuedLines();
      setImmediate(() => this.#write());
    }
    const { lines, written } = this.#writing;
    lines.set(file, (lines.get(file) ?? '') + line);
    return written;
  }

  #write(): void {
    const writing = this.#writing;
    if (!writing) return;
    this.#writing = null;
    try {
      // a file removed meanwhile had no stream open: what was queued for it is not needed
      for (const [file, lines] of writing.lines) if (!file.removed) writeSync(file.fd, lines);
      writing.resolve();
    } catch (error) {
      writing.reject(error);
    }
  }

  /**
   * Closes and removes a file whose streams all closed. One that cannot be removed (already removed
   * by a reaper that took this process for dead) is left: its streams are settled in the database,
   * and importing them again changes nothing.
   */
  #remove(file: JournalFile): void {
    file.removed = true;
    try {
      closeSync(file.fd);
      unlinkSync(file.path);
    } catch {
      // left as it is, see above
    }
  }
}

/** The path of an instance's journal files up to their number: `<database>-streams-<instance>.`. */
export function streamJournalPrefix(databaseFile: string, instanceId: string): string {
  return `${databaseFile}-streams-${instanceId}.`;
}

/** The instances that left journal files beside `databaseFile`. */
export function journaledInstances(databaseFile: string): string[] {
  const head = `${basename(databaseFile)}-streams-`;
  const instances = new Set<string>();
  for (const name of filesIn(dirname(databaseFile))) {
    if (!name.startsWith(head)) continue;
    const instance = name.slice(head.length).replace(/\.\d+$/, '');
    if (instance !== name.slice(head.length)) instances.add(instance);
  }
  return [...instances];
}

/** The journal files of the instance whose prefix is `prefix`, oldest first. */
function journalFiles(prefix: string): string[] {
  const head = basename(prefix);
  return filesIn(dirname(prefix))
    .filter((name) => name.startsWith(head) && /^\d+$/.test(name.slice(head.length)))
    .sort((a, b) => Number(a.slice(head.length)) - Number(b.slice(head.length)))
    .map((name) => join(dirname(prefix), name));
}

/**
 * The streams a journal marked, each as its last checkpoint left it. A line the process was
 * writing as it died, cut short, is no mark: its stream had not been answered yet.
 */
export function readStreamJournal(prefix: string): PendingGenerationRow[] {
  const marked = new Map<string, PendingGenerationRow>();
  for (const path of journalFiles(prefix)) {
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      const entry = parsedLine(line);
      if (entry?.mark) marked.set(entry.mark.id, entry.mark);
      const [id, endpointId, completionTokens, promptTokens] = entry?.checkpoint ?? [];
      const row = id === undefined ? undefined : marked.get(id);
      if (row && (row.completion_tokens === null || row.completion_tokens === undefined || row.completion_tokens < (completionTokens ?? 0))) {
        Object.assign(row, { endpoint_id: endpointId, completion_tokens: completionTokens, prompt_tokens: promptTokens });
      }
    }
  }
  return [...marked.values()];
}

/** Removes an instance's journal files, once what they marked is recorded in the database. */
export function removeStreamJournal(prefix: string): void {
  for (const path of journalFiles(prefix)) unlinkSync(path);
}

interface JournalLine {
  mark?: PendingGenerationRow;
  checkpoint?: [string, string, number, number | null];
}

function parsedLine(line: string): JournalLine | undefined {
  if (line.length === 0) return undefined;
  try {
    return JSON.parse(line) as JournalLine;
  } catch {
    return undefined;
  }
}

function filesIn(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}
