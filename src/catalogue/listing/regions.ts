import { ownEntry } from '../../core/own-entry.js';

/** Datacenter regions a `region` filter may name beside country codes (lowercase). */
const REGION_COUNTRIES: Readonly<Record<string, readonly string[]>> = {
  eu: ['at', 'be', 'bg', 'hr', 'cy', 'cz', 'dk', 'ee', 'fi', 'fr', 'de', 'gr', 'hu', 'ie', 'it', 'lv', 'lt', 'lu', 'mt', 'nl', 'pl', 'pt', 'ro', 'sk', 'si', 'es', 'se'],
};

/**
 * True when a declared datacenter (a country code or a region name, lowercased) lies in `wanted`
 * (a country code, or a region that contains countries, such as `eu`).
 */
export function datacenterIn(datacenter: string, wanted: string): boolean {
  return datacenter === wanted || (ownEntry(REGION_COUNTRIES, wanted)?.includes(datacenter) ?? false);
}
