import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { ConfigReloader, type FileReading } from '../../../src/catalogue/config-reloader.js';
import type { CatalogueReader } from '../../../src/catalogue/worker-catalogue-reader.js';

/** A parse that refuses every text, naming it: enough to see what was handed on. */
const refuseEach: CatalogueReader = (text) => Promise.resolve({ ok: false, problems: [{ path: 'catalogue', message: text }] });

describe('ConfigReloader', () => {
  let dir: string;
  let file: string;
  let reads: number;
  let readings: FileReading[];
  let reloader: ConfigReloader;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'switchyard-reloader-'));
    file = join(dir, 'catalogue.yaml');
    await writeFile(file, 'first');
    reads = 0;
    readings = [];
    reloader = new ConfigReloader(file, (reading) => {
      readings.push(reading);
    }, {
      initialText: 'first',
      parse: refuseEach,
      read: (path) => {
        reads += 1;
        return readFile(path, 'utf8');
      },
    });
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const texts = () => readings.map((reading) => (reading.kind === 'invalid' ? reading.problems[0]?.message : reading.kind));

  test('changes elsewhere in the directory read the file once, then not again until it changes', async () => {
    await reloader.reload('file change');
    expect(reads).toBe(1);
    for (const name of ['switchyard.db', 'switchyard.db-wal', 'switchyard.db-shm']) {
      await writeFile(join(dir, name), 'pages');
      await reloader.reload('file change');
    }
    expect(reads).toBe(1);
    expect(readings).toEqual([]);

    await writeFile(file, 'second');
    await reloader.reload('file change');
    expect(reads).toBe(2);
    expect(texts()).toEqual(['second']);
  });

  test('a new file renamed over the old one is read, even when its size and text are the same', async () => {
    await reloader.reload('file change');
    await writeFile(join(dir, 'catalogue.yaml.new'), 'third');
    await writeFile(file, 'fifth');
    await reloader.reload('file change');
    await rename(join(dir, 'catalogue.yaml.new'), file);
    await reloader.reload('file change');
    expect(reads).toBe(3);
    expect(texts()).toEqual(['fifth', 'third']);
  });

  test('SIGHUP reads the file whether or not it changed', async () => {
    await reloader.reload('file change');
    await reloader.reload('SIGHUP');
    await reloader.reload('SIGHUP');
    expect(reads).toBe(3);
    expect(texts()).toEqual(['first', 'first']);
  });

  test('a file gone at the moment of reading is reported unreadable, and read again once back', async () => {
    await reloader.reload('file change');
    await rm(file);
    await reloader.reload('file change');
    await writeFile(file, 'back');
    await reloader.reload('file change');
    expect(texts()).toEqual(['unreadable', 'back']);
  });
});
