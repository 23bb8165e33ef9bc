import { MappingReader } from './mapping-reader.js';
import type { DefaultParameters, HubReading } from './types.js';

/** Model fields read here: what the public listing shows about the weights and their author. */
export const MODEL_FACT_FIELDS = ['author', 'hub_id', 'hub', 'default_parameters'];

const HUB_FIELDS = [
  'id', 'read_at', 'availability', 'languages', 'papers', 'datasets', 'weights_revision', 'weights_updated_at', 'downloads', 'likes',
  'evaluations',
];
const EVALUATION_FIELDS = ['dataset', 'metric', 'value'];
const FAMILY_FIELDS = ['id', 'name'];
const DEFAULT_PARAMETER_BOUNDS = {
  temperature: { min: 0, max: 2, integer: false },
  top_p: { min: 0, max: 1, integer: false },
  top_k: { min: -1, max: Number.MAX_SAFE_INTEGER, integer: true },
  repetition_penalty: { min: Number.MIN_VALUE, max: 2, integer: false },
} as const;

const AUTHOR = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const HUB_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*\/[A-Za-z0-9][A-Za-z0-9._-]*$/;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;
const FAMILY_ID = /^[A-Za-z0-9][A-Za-z0-9._/-]*$/;

export interface ModelFacts {
  author: string;
  hubId: string | null;
  hub: HubReading | null;
  defaultParameters: DefaultParameters;
}

/** `author` (else the id's first segment), `hub_id`, the `hub` reading and `default_parameters`. */
export function readModelFacts(fields: MappingReader, id: string): ModelFacts {
  const hub = readHub(fields.mapping('hub', HUB_FIELDS, true));
  const declaredHubId = fields.optionalString('hub_id', { pattern: HUB_ID, patternMessage: 'must be a repository id <owner>/<name>' });
  if (hub && declaredHubId !== null && hub.id !== declaredHubId) fields.problem('hub.id', `must equal hub_id (${declaredHubId})`);
  return {
    author: fields.optionalString('author', { pattern: AUTHOR, patternMessage: 'must be letters, digits, ".", "_" or "-"' }) ?? id.split('/')[0] ?? '',
    hubId: declaredHubId ?? hub?.id ?? null,
    hub,
    defaultParameters: readDefaultParameters(fields.mapping('default_parameters', Object.keys(DEFAULT_PARAMETER_BOUNDS), true)),
  };
}

/** `family`: a family id, or `{id, name}` naming it for display (name null when not named here). */
export function readFamily(fields: MappingReader): { id: string | null; name: string | null } {
  const raw = fields.raw('family');
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    const family = fields.mapping('family', FAMILY_FIELDS);
    if (!family) return { id: null, name: null };
    return { id: family.string('id', { pattern: FAMILY_ID, patternMessage: 'must be a family id' }) || null, name: family.string('name') || null };
  }
  return { id: fields.optionalString('family', { pattern: FAMILY_ID, patternMessage: 'must be a family id' }), name: null };
}

function readHub(hub: MappingReader | null): HubReading | null {
  if (!hub) return null;
  const reading: HubReading = {
    id: hub.string('id', { pattern: HUB_ID, patternMessage: 'must be a repository id <owner>/<name>' }),
    read_at: hub.string('read_at', { pattern: ISO_INSTANT, patternMessage: 'must be a date or an ISO 8601 instant' }),
  };
  const availability = hub.optionalString('availability');
  if (availability !== null) reading.availability = availability;
  for (const key of ['languages', 'papers', 'datasets'] as const) {
    if (hub.has(key)) reading[key] = hub.stringList(key);
  }
  const revision = hub.optionalString('weights_revision');
  if (revision !== null) reading.weights_revision = revision;
  const updated = hub.optionalString('weights_updated_at', { pattern: ISO_INSTANT, patternMessage: 'must be a date or an ISO 8601 instant' });
  if (updated !== null) reading.weights_updated_at = updated;
  const downloads = hub.optionalInteger('downloads', { min: 0 });
  if (downloads !== null) reading.downloads = downloads;
  const likes = hub.optionalInteger('likes', { min: 0 });
  if (likes !== null) reading.likes = likes;
  if (hub.has('evaluations')) reading.evaluations = hub.list('evaluations').flatMap((item) => readEvaluation(MappingReader.open(item.value, item.path, hub.problems, EVALUATION_FIELDS)));
  return reading;
}

function readEvaluation(fields: MappingReader | null): { dataset: string; metric: string; value: number }[] {
  if (!fields) return [];
  const dataset = fields.string('dataset');
  const metric = fields.string('metric');
  const value = fields.raw('value');
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    fields.problem('value', fields.has('value') ? 'must be a number' : 'required');
    return [];
  }
  return [{ dataset, metric, value }];
}

function readDefaultParameters(fields: MappingReader | null): DefaultParameters {
  const read: DefaultParameters = {};
  if (!fields) return read;
  for (const [key, bounds] of Object.entries(DEFAULT_PARAMETER_BOUNDS) as [keyof DefaultParameters, (typeof DEFAULT_PARAMETER_BOUNDS)[keyof DefaultParameters]][]) {
    if (!fields.has(key)) continue;
    const value = fields.raw(key);
    const valid = typeof value === 'number' && Number.isFinite(value) && (!bounds.integer || Number.isInteger(value)) && value >= bounds.min && value <= bounds.max;
    if (valid) read[key] = value;
    else fields.problem(key, bounds.integer ? `must be an integer from ${bounds.min}` : `must be a number from ${bounds.min === Number.MIN_VALUE ? 'above 0' : bounds.min} to ${bounds.max}`);
  }
  return read;
}
