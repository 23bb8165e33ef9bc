import { isIP } from 'node:net';

/** Names of address ranges the server's proxy matching understands, beside addresses and CIDRs. */
const RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * Why `entry` cannot name trusted reverse proxies, or null when it can: an IPv4 or IPv6 address,
 * a CIDR (`10.0.0.0/8`, `fd00::/8`) or one of `loopback`, `linklocal`, `uniquelocal`.
 */
export function proxyAddressProblem(entry: string): string | null {
  if (RANGE_NAMES.includes(entry)) return null;
  const [address = '', prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) {
    return `"${entry}" is not an IP address, a CIDR or one of ${RANGE_NAMES.join(', ')}`;
  }
  if (prefix === undefined) return null;
  const bits = family === 4 ? 32 : 128;
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > bits) return `"${entry}": the prefix length must be 0 to ${bits}`;
  return null;
}
