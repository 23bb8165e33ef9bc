/** Socket errors: the database's server refused, dropped or never answered the connection. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * PostgreSQL's own: connection exceptions (08…), the server shutting down or starting (57P01–57P03),
 * too many connections (53300), a statement cut by its timeout (57014), and a transaction the server
 * chose to abort for another (deadlock 40P01, serialization 40001): each succeeds when repeated.
 */
const POSTGRES_CODES = /^(08...|57P0[123]|53300|57014|40P01|40001)$/;

/** What pg says when the pool gives up on a connection. */
const POOL_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connection is closed/i;

/**
 * Whether a failed statement failed because the database could not be reached for now (a server
 * down or restarting, a network cut, a pool out of time, SQLite busy past its timeout) rather than
 * because of what it asked: the request is answered 503 `server`, to be repeated, never 500.
 */
export function isStoreUnreachable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || POSTGRES_CODES.test(code) || code === 'SQLITE_BUSY')) return true;
  return typeof message === 'string' && POOL_MESSAGES.test(message);
}
