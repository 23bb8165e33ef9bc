import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadMasterKey, MASTER_KEY_VARIABLE } from '../../../src/files/master-key.js';
import { StartupError } from '../../../src/runtime/startup-error.js';

const folders: string[] = [];

function folder(): string {
  const path = mkdtempSync(join(tmpdir(), 'switchyard-master-'));
  folders.push(path);
  return path;
}

afterEach(() => {
  for (const path of folders.splice(0)) rmSync(path, { recursive: true, force: true });
});

async function refusal(work: Promise<unknown>): Promise<StartupError> {
  const error = await work.then(() => undefined, (thrown: unknown) => thrown);
  if (!(error instanceof StartupError)) throw new Error(`expected a StartupError, got ${String(error)}`);
  return error;
}

const KEY = Buffer.alloc(32, 7).toString('base64');

describe('the master key', () => {
  it('SWITCHYARD_MASTER_KEY (32 bytes in base64) is taken first, no file made', async () => {
    const data = folder();
    const master = await loadMasterKey({ env: { [MASTER_KEY_VARIABLE]: KEY }, folder: data });
    expect(master).toEqual({ key: Buffer.alloc(32, 7), source: MASTER_KEY_VARIABLE });
    expect(() => statSync(join(data, 'master.key'))).toThrow();
  });

  it('a malformed SWITCHYARD_MASTER_KEY refuses the start naming the variable, never showing the value', async () => {
    for (const value of ['', 'not base64 at all', Buffer.alloc(16, 1).toString('base64'), Buffer.alloc(33, 1).toString('base64')]) {
      const error = await refusal(loadMasterKey({ env: { [MASTER_KEY_VARIABLE]: value }, folder: folder() }));
      expect(error.option).toBe(MASTER_KEY_VARIABLE);
      expect(error.message).toMatch(/^SWITCHYARD_MASTER_KEY: must be 32 bytes in base64/);
      if (value !== '') expect(error.message).not.toContain(value);
    }
  });

  it('without the variable, one is made on the first start into master.key (mode 0600) and read on the next', async () => {
    const data = join(folder(), 'nested');
    const first = await loadMasterKey({ env: {}, folder: data });
    const path = join(data, 'master.key');
    expect(first.source).toBe(path);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(path, 'utf8').trim(), 'base64')).toEqual(first.key);
    expect((await loadMasterKey({ env: {}, folder: data })).key).toEqual(first.key);
  });

  it('instances starting together on one folder end up with the same key', async () => {
    const data = folder();
    const keys = await Promise.all(Array.from({ length: 8 }, () => loadMasterKey({ env: {}, folder: data })));
    for (const master of keys) expect(master.key).toEqual(keys[0]?.key);
  });

  it('a key file others may read, or a malformed one, refuses the start naming the file', async () => {
    const data = folder();
    const path = join(data, 'master.key');
    writeFileSync(path, `${KEY}\n`, { mode: 0o644 });
    chmodSync(path, 0o644);
    const loose = await refusal(loadMasterKey({ env: {}, folder: data }));
    expect(loose.option).toBe(path);
    expect(loose.message).toContain('mode 0644');
    expect(loose.message).not.toContain(KEY);
    chmodSync(path, 0o600);
    writeFileSync(path, 'short\n');
    expect((await refusal(loadMasterKey({ env: {}, folder: data }))).message).toBe(`${path}: must be 32 bytes in base64 (44 characters; \`openssl rand -base64 32\` makes one)`);
  });

  it('with no folder (an in-memory database) a key is made for the process alone', async () => {
    const first = await loadMasterKey({ env: {}, folder: null });
    const second = await loadMasterKey({ env: {}, folder: null });
    expect(first.key).toHaveLength(32);
    expect(first.key.equals(second.key)).toBe(false);
  });
});
