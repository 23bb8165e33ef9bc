import { MappingReader } from './mapping-reader.js';
import type { ProblemList } from './problem-list.js';
import { proxyAddressProblem } from '../settings/proxy-address.js';
import { resolveSettings, SETTING_NAMES, SETTING_TABLE, type SettingName, type SettingsPatch } from '../settings/settings-table.js';

/** The settings of each mapping under `settings:`, and the settings written directly in it. */
const GROUPS = groupNames();

/**
 * The optional top-level `settings:` block: what it sets, each value checked with its path
 * (`settings.rate_limits.per_key_per_minute: must be a positive integer`, `settings.prober.enabled:
 * must be true or false`). Unknown keys are problems.
 */
export function readSettings(root: MappingReader): SettingsPatch {
  const block = root.mapping('settings', [...GROUPS.keys()], true);
  if (!block) return {};
  const patch: Record<string, unknown> = {};
  for (const [group, children] of GROUPS) {
    if (children === null) {
      readSetting(block, group, group as SettingName, patch);
      continue;
    }
    const mapping = block.mapping(group, children, true);
    if (mapping) for (const child of children) readSetting(mapping, child, `${group}.${child}` as SettingName, patch);
  }
  const read = patch as SettingsPatch;
  checkTimeoutOrder(block, read);
  return read;
}

function readSetting(fields: MappingReader, key: string, name: SettingName, patch: Record<string, unknown>): void {
  if (!fields.has(key)) return;
  const kind = SETTING_TABLE[name].kind;
  const value = kind === 'count' ? readCount(fields, key) : kind === 'flag' ? readFlag(fields, key) : readAddresses(fields, key);
  if (value !== null) patch[name] = value;
}

function readFlag(fields: MappingReader, key: string): boolean | null {
  const value = fields.raw(key);
  if (typeof value === 'boolean') return value;
  fields.problem(key, 'must be true or false');
  return null;
}

function readCount(fields: MappingReader, key: string): number | null {
  const value = fields.raw(key);
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  fields.problem(key, 'must be a positive integer');
  return null;
}

function readAddresses(fields: MappingReader, key: string): string[] {
  const entries = fields.stringList(key);
  const written = fields.raw(key);
  if (!Array.isArray(written)) return entries;
  written.forEach((item: unknown, index) => {
    const problem = typeof item === 'string' && item !== '' ? proxyAddressProblem(item) : null;
    if (problem !== null) fields.problems.add(`${fields.at(key)}[${index}]`, problem);
  });
  return entries;
}

/** The head of a request arrives within the time allowed for the whole request. */
function checkTimeoutOrder(block: MappingReader, patch: SettingsPatch): void {
  const settings = resolveSettings(patch);
  if (settings['server.headers_timeout_ms'] <= settings['server.request_timeout_ms']) return;
  block.problems.add(
    `${block.at('server')}.headers_timeout_ms`,
    `must not exceed server.request_timeout_ms (${settings['server.request_timeout_ms']})`,
  );
}

function groupNames(): Map<string, string[] | null> {
  const groups = new Map<string, string[] | null>();
  for (const name of SETTING_NAMES) {
    const [group = name, child] = name.split('.');
    if (child === undefined) groups.set(group, null);
    else groups.set(group, [...(groups.get(group) ?? []), child]);
  }
  return groups;
}
