import type { Migration } from './migration.js';

/**
 * Render timing (spec 02 "Endpoint entry": `render_timing`): each minute's renders of an endpoint,
 * as the sums a least-squares fit of seconds on megapixels adds up from, with the picture sizes seen
 * (JSON, null when the minute rendered nothing; cleared with the sketches once older than a day).
 */
export const renderTimingMigration: Migration = {
  id: '0010-render-timing',
  statements: ['ALTER TABLE endpoint_figures ADD COLUMN renders TEXT'],
};
