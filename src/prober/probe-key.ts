import type { KeyContext } from '../accounts/types.js';
import { OPERATOR_ACCOUNT_ID } from '../billing/operator-ledger.js';

/**
 * The key probes run as: the operator's. No workspace or key has these ids (record ids are `ws_…`,
 * `key_…`), so no customer's spend limit or usage ever sees a probe.
 */
export const PROBE_KEY: KeyContext = {
  keyId: 'probe',
  hash: 'probe',
  accountId: OPERATOR_ACCOUNT_ID,
  workspaceId: 'operator',
  name: 'capability checks',
  label: 'probe',
  management: false,
  scopeLimits: {},
  expiresAt: null,
};
