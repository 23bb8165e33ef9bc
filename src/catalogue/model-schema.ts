import { readEndpoint, type EndpointDraft } from './endpoint-schema.js';
import { endpointIds, type ModelDraft } from './index-builder.js';
import { MappingReader } from './mapping-reader.js';
import { MODEL_FACT_FIELDS, readFamily, readModelFacts } from './model-facts-schema.js';
import type { ProblemList } from './problem-list.js';
import type { ProviderEntry } from './types.js';

const MODEL_FIELDS = ['id', 'name', 'created', 'family', 'description', 'expiration_date', 'tags', 'endpoints', ...MODEL_FACT_FIELDS];

export const MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*\/[A-Za-z0-9][A-Za-z0-9._:-]*$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** One `models[i]` entry; null when it is not even a mapping. */
export function readModel(value: unknown, path: string, providers: ReadonlyMap<string, ProviderEntry>, problems: ProblemList): ModelDraft | null {
  const fields = MappingReader.open(value, path, problems, MODEL_FIELDS);
  if (!fields) return null;
  const id = fields.string('id', { pattern: MODEL_ID, patternMessage: 'must look like <author>/<slug>' });
  const expirationDate = fields.has('expiration_date') ? readDate(fields, 'expiration_date') : null;
  const family = readFamily(fields);
  return {
    id,
    name: fields.string('name'),
    created: readCreated(fields),
    family: family.id,
    familyName: family.name,
    description: fields.optionalString('description'),
    expirationDate: expirationDate === null ? null : isoDay(expirationDate),
    tags: fields.stringList('tags', { fallback: [] }),
    ...readModelFacts(fields, id),
    endpoints: readEndpoints(fields, id, providers, problems),
  };
}

function readEndpoints(fields: MappingReader, modelId: string, providers: ReadonlyMap<string, ProviderEntry>, problems: ProblemList): EndpointDraft[] {
  const items = fields.list('endpoints');
  if (fields.has('endpoints') && Array.isArray(fields.raw('endpoints')) && items.length === 0) {
    fields.problem('endpoints', 'must list at least one endpoint');
  }
  const read: { draft: EndpointDraft; path: string }[] = [];
  for (const item of items) {
    const draft = readEndpoint(item.value, item.path, { modelId, providers, problems });
    if (draft) read.push({ draft, path: item.path });
  }
  if (modelId === '') return read.map((entry) => entry.draft);
  const ids = endpointIds(modelId, read.map((entry) => entry.draft));
  const seen = new Set<string>();
  ids.forEach((id, index) => {
    if (seen.has(id)) problems.add(read[index]?.path ?? fields.at('endpoints'), `duplicate endpoint "${id}" (give each endpoint on one provider its own quantization)`);
    seen.add(id);
  });
  return read.map((entry) => entry.draft);
}

/** `created`: a YYYY-MM-DD day (string or the Date some YAML readers make of it) or unix seconds. */
function readCreated(fields: MappingReader): number {
  const value = fields.raw('created');
  if (typeof value === 'number') return fields.integer('created', { min: 0 });
  if (!fields.has('created')) return fields.integer('created');
  const day = readDate(fields, 'created');
  return day === null ? 0 : Math.floor(day.getTime() / 1000);
}

function readDate(fields: MappingReader, key: string): Date | null {
  const value = fields.raw(key);
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value;
  const match = typeof value === 'string' ? ISO_DATE.exec(value) : null;
  if (match) {
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    const date = new Date(Date.UTC(year, month - 1, day));
    if (date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day) return date;
  }
  fields.problem(key, key === 'created' ? 'must be a date YYYY-MM-DD or unix seconds' : 'must be a date YYYY-MM-DD');
  return null;
}

function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}
