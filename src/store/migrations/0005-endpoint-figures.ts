import type { Migration } from './migration.js';

/**
 * Measured figures. Each instance writes, per endpoint and per minute it served, one row: counted
 * attempts and failures, tool-call outcomes, complete streams and runaways, and the distributions
 * (time to first token, whole-request time, throughput) as mergeable sketches in base64, null when
 * empty. Rows of several instances add up; `minute` is minutes since the epoch. Rows older than
 * seven days are pruned and sketches older than a day cleared, by minute (hence its index).
 */
export const endpointFiguresMigration: Migration = {
  id: '0005-endpoint-figures',
  statements: [
    `CREATE TABLE endpoint_figures (
      instance_id TEXT NOT NULL,
      endpoint_id TEXT NOT NULL,
      minute BIGINT NOT NULL,
      attempts INTEGER NOT NULL,
      failures INTEGER NOT NULL,
      tool_calls INTEGER NOT NULL,
      tool_call_failures INTEGER NOT NULL,
      streams INTEGER NOT NULL,
      runaways INTEGER NOT NULL,
      ttft TEXT,
      response TEXT,
      throughput TEXT,
      PRIMARY KEY (instance_id, endpoint_id, minute)
    )`,
    `CREATE INDEX endpoint_figures_minute ON endpoint_figures (minute)`,
  ],
};
