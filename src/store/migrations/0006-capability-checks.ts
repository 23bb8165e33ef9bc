import type { Migration } from './migration.js';

/**
 * The latest capability check of each endpoint and capability (see prober/): whether it passed,
 * what the endpoint served then (its serving revision), the probe version, when, and what was
 * seen. One row per endpoint and capability, replaced only by a newer check, so every instance
 * reads the same verdicts and they survive restarts; `checked_at` is indexed for the instances
 * reading what others recorded since they last looked.
 */
export const capabilityChecksMigration: Migration = {
  id: '0006-capability-checks',
  statements: [
    `CREATE TABLE capability_checks (
      endpoint_id TEXT NOT NULL,
      capability TEXT NOT NULL,
      passed INTEGER NOT NULL,
      serving_revision TEXT NOT NULL,
      probe_version INTEGER NOT NULL,
      checked_at BIGINT NOT NULL,
      detail TEXT NOT NULL,
      PRIMARY KEY (endpoint_id, capability)
    )`,
    `CREATE INDEX capability_checks_time ON capability_checks (checked_at)`,
  ],
};
