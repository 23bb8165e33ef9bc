import type { Logger } from 'pino';
import { MasterKeyMismatchError, openKeyStore } from '../files/database-key-store.js';
import type { KeyStore } from '../files/key-store.js';
import { defaultKeyStoreUrl, masterKeyFolderOf } from '../files/key-store-location.js';
import { loadMasterKey } from '../files/master-key.js';
import { parseDatabaseUrl } from '../store/database-url.js';
import { errorCause, redactedUrl, StartupError } from './startup-error.js';

export interface KeyStoreStartOptions {
  /** `--key-store`; default: beside the database (see defaultKeyStoreUrl). */
  url?: string;
  databaseUrl: string;
  env: NodeJS.ProcessEnv;
  poolSize: number;
  logger: Pick<Logger, 'warn'>;
}

/**
 * The key store, open and checked against the master key (`SWITCHYARD_MASTER_KEY`, else the
 * `master.key` file beside it, made on the first start; see masterKeyFolderOf). What cannot start is a
 * StartupError naming `--key-store`, the variable or the key file.
 */
export async function startKeyStore(options: KeyStoreStartOptions): Promise<KeyStore> {
  const url = options.url ?? defaultKeyStoreUrl(options.databaseUrl);
  try {
    parseDatabaseUrl(url);
  } catch (error) {
    throw new StartupError('--key-store', errorCause(error));
  }
  if (options.url !== undefined && sameDatabase(url, options.databaseUrl)) {
    throw new StartupError('--key-store', 'must name another database than --database: keys kept with the data they seal would be in every backup of it');
  }
  const masterKey = await loadMasterKey({ env: options.env, folder: masterKeyFolderOf(url, options.databaseUrl) });
  try {
    return await openKeyStore(url, masterKey.key, { poolSize: options.poolSize, logger: options.logger });
  } catch (error) {
    if (error instanceof MasterKeyMismatchError) throw new StartupError(masterKey.source, `${error.message} at ${redactedUrl(url)}`);
    throw new StartupError('--key-store', `cannot open ${redactedUrl(url)}: ${errorCause(error)}`);
  }
}

function sameDatabase(keyStoreUrl: string, databaseUrl: string): boolean {
  const keys = parseDatabaseUrl(keyStoreUrl);
  const data = parseDatabaseUrl(databaseUrl);
  if (keys.engine === 'sqlite' && data.engine === 'sqlite') return keys.path !== ':memory:' && keys.path === data.path;
  return keys.engine === 'postgres' && data.engine === 'postgres' && keys.url === data.url;
}
