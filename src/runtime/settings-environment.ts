import { proxyAddressProblem } from '../settings/proxy-address.js';
import { SETTING_NAMES, SETTING_TABLE, type SettingsPatch } from '../settings/settings-table.js';
import { StartupError } from './startup-error.js';

/**
 * The settings an operator sets per machine through `SWITCHYARD_…` variables (see SETTING_TABLE);
 * they beat the config file. A bad value stops the start naming the variable. An empty variable
 * counts as unset, except the address list, where it means "no proxy is trusted".
 */
export function readEnvironmentSettings(env: NodeJS.ProcessEnv): SettingsPatch {
  const patch: Record<string, unknown> = {};
  for (const name of SETTING_NAMES) {
    const spec = SETTING_TABLE[name];
    const variable = 'env' in spec ? spec.env : undefined;
    const text = variable === undefined ? undefined : env[variable];
    if (variable === undefined || text === undefined) continue;
    if (spec.kind === 'addresses') patch[name] = readAddresses(variable, text);
    else if (text.trim() !== '') patch[name] = readCount(variable, text);
  }
  return patch as SettingsPatch;
}

function readCount(variable: string, text: string): number {
  const value = /^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value === 0) throw new StartupError(variable, `must be a positive integer, not ${JSON.stringify(text)}`);
  return value;
}

function readAddresses(variable: string, text: string): string[] {
  const entries = text.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  for (const entry of entries) {
    const problem = proxyAddressProblem(entry);
    if (problem !== null) throw new StartupError(variable, problem);
  }
  return entries;
}
