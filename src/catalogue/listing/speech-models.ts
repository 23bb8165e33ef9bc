import type { Catalogue, EndpointEntry } from '../types.js';
import { summaryOf } from './listed-model.js';
import { listingOf } from './listing-snapshot.js';
import { union } from './live-endpoints.js';

/**
 * Live endpoints of a model that synthesise speech: `speech` among their outputs (which the schema
 * pairs with a `speech_envelope`). An endpoint with `audio` output speaks inside chat replies only.
 */
export function speechEndpointsOf(endpoints: readonly EndpointEntry[]): EndpointEntry[] {
  return endpoints.filter((endpoint) => !endpoint.disabled && endpoint.speechEnvelope !== null && endpoint.outputModalities.includes('speech'));
}

/**
 * `GET /speech/models` records: each served speech model's summary plus
 * `speech{voices, formats, min_speed?, max_speed?}`, the union over its live speech endpoints. The
 * speed bounds are the widest declared, present together or both absent when no endpoint declared
 * a range.
 */
export function speechModelRecords(catalogue: Catalogue): Record<string, unknown>[] {
  const records: Record<string, unknown>[] = [];
  for (const listed of listingOf(catalogue).models) {
    const speaking = speechEndpointsOf(listed.model.endpoints);
    if (speaking.length === 0) continue;
    const speech: Record<string, unknown> = {
      voices: union(speaking.map((endpoint) => endpoint.speechEnvelope?.voices ?? [])),
      formats: union(speaking.map((endpoint) => endpoint.speechEnvelope?.codecs ?? [])),
    };
    const ranges = speaking.flatMap((endpoint) => {
      const envelope = endpoint.speechEnvelope;
      return envelope && envelope.minSpeed !== null && envelope.maxSpeed !== null ? [{ min: envelope.minSpeed, max: envelope.maxSpeed }] : [];
    });
    if (ranges.length > 0) {
      speech.min_speed = Math.min(...ranges.map((range) => range.min));
      speech.max_speed = Math.max(...ranges.map((range) => range.max));
    }
    records.push({ ...summaryOf(listed), speech });
  }
  return records;
}
