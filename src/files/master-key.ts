import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StartupError } from '../runtime/startup-error.js';
import { KEY_BYTES } from './sealing.js';

/** The variable holding the master key of a fleet (every instance the same). */
export const MASTER_KEY_VARIABLE = 'SWITCHYARD_MASTER_KEY';

/** The file holding a generated master key, in the data folder. */
export const MASTER_KEY_FILE = 'master.key';

/** 32 bytes in base64: 43 characters and one `=` of padding (which may be left off). */
const BASE64_KEY = /^[A-Za-z0-9+/]{43}=?$/;

const HOW_TO_MAKE_ONE = 'must be 32 bytes in base64 (44 characters; `openssl rand -base64 32` makes one)';

/** The master key wrapping every data key, and where it came from. */
export interface MasterKey {
  key: Buffer;
  /** The variable or the file it was read from, or that it was made for this process only. */
  source: string;
}

/**
 * The master key: `SWITCHYARD_MASTER_KEY` when set, else the `master.key` file in `folder`, made on
 * the first start (32 random bytes in base64, mode 0600; two instances starting together keep the
 * same one). With no folder (an in-memory key store, whose keys die with the process) a key is
 * made for this process only. A malformed value, or a file others may read, refuses the start
 * with a StartupError naming the variable or the file. The key itself is never shown.
 */
export async function loadMasterKey(options: { env: NodeJS.ProcessEnv; folder: string | null }): Promise<MasterKey> {
  const value = options.env[MASTER_KEY_VARIABLE];
  if (value !== undefined) {
    const key = decodeKey(value);
    if (!key) throw new StartupError(MASTER_KEY_VARIABLE, HOW_TO_MAKE_ONE);
    return { key, source: MASTER_KEY_VARIABLE };
  }
  if (options.folder === null) return { key: randomBytes(KEY_BYTES), source: 'a master key made for this process (in-memory key store)' };
  const path = join(options.folder, MASTER_KEY_FILE);
  return { key: await readKeyFile(path) ?? await createKeyFile(options.folder, path), source: path };
}

function decodeKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (!BASE64_KEY.test(trimmed)) return null;
  const key = Buffer.from(trimmed, 'base64');
  return key.length === KEY_BYTES ? key : null;
}

/** The key in `path`, or null when there is no such file. */
async function readKeyFile(path: string): Promise<Buffer | null> {
  let mode: number;
  try {
    mode = (await stat(path)).mode;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new StartupError(path, `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
    throw new StartupError(path, `other users may read or change it (mode ${(mode & 0o777).toString(8).padStart(4, '0')}): run chmod 600 ${path}`);
  }
  const key = decodeKey(await readFile(path, 'utf8'));
  if (!key) throw new StartupError(path, HOW_TO_MAKE_ONE);
  return key;
}

/**
 * Makes the key file whole or not at all: written under a temporary name, then linked into place,
 * which fails when another instance got there first; its key is then the one read.
 */
async function createKeyFile(folder: string, path: string): Promise<Buffer> {
  await mkdir(folder, { recursive: true });
  const key = randomBytes(KEY_BYTES);
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temporary, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(temporary, path);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new StartupError(path, `cannot be created (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    const theirs = await readKeyFile(path);
    if (!theirs) throw new StartupError(path, 'vanished while it was being created');
    return theirs;
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
}
