import { coreMigration } from './0001-core.js';
import { keyRevisionMigration } from './0002-key-revision.js';
import { uncollectedMigration } from './0003-uncollected.js';
import { instancesMigration } from './0004-instances.js';
import { endpointFiguresMigration } from './0005-endpoint-figures.js';
import { capabilityChecksMigration } from './0006-capability-checks.js';
import { peopleAndLimitsMigration } from './0007-people-and-limits.js';
import { storedFilesMigration } from './0008-stored-files.js';
import { batchesMigration } from './0009-batches.js';
import { renderTimingMigration } from './0010-render-timing.js';
import { holdOwnersMigration } from './0011-hold-owners.js';
import { chargesOnGenerationsMigration } from './0012-charges-on-generations.js';
import { holdsOnGenerationsMigration } from './0013-holds-on-generations.js';
import type { Migration } from './migration.js';

/** Every migration, in the order it is applied. Append only. */
export const MIGRATIONS: readonly Migration[] = [coreMigration, keyRevisionMigration, uncollectedMigration, instancesMigration,
  endpointFiguresMigration, capabilityChecksMigration, peopleAndLimitsMigration, storedFilesMigration, batchesMigration, renderTimingMigration,
  holdOwnersMigration, chargesOnGenerationsMigration, holdsOnGenerationsMigration];
