import { describe, expect, test } from 'vitest';
import { endpointProblems as problemsOf, loadedEndpoint as endpointOf } from '../../fixtures/catalogue/documents.js';

const at = 'models[0].endpoints[0]';
const paints = { output_modalities: ['image'] };

describe('reference_inputs.image: pictures an image-generation endpoint renders from', () => {
  test('is read with its formats, roles, largest size and count', () => {
    const endpoint = endpointOf({ ...paints, reference_inputs: { image: { formats: ['png', 'jpeg'], max_count: 4, max_bytes: 1_000_000 } } });
    expect(endpoint.referenceInputs).toEqual({ audio: null, image: { formats: ['png', 'jpeg'], roles: ['reference'], maxBytes: 1_000_000, maxCount: 4 } });
  });

  test('belongs to an endpoint whose outputs include image', () => {
    expect(problemsOf({ reference_inputs: { image: { formats: ['png'] } } })).toEqual([`${at}.reference_inputs.image: only for endpoints whose output_modalities include image`]);
  });

  test('names known formats, at least one, and a count from 1 to 16', () => {
    expect(problemsOf({ ...paints, reference_inputs: { image: { formats: ['bmp'], max_count: 17 } } })).toEqual([
      `${at}.reference_inputs.image.formats[0]: must be one of png, jpeg, webp, gif`,
      `${at}.reference_inputs.image.max_count: must be at most 16`,
    ]);
    expect(problemsOf({ ...paints, reference_inputs: { image: { formats: [] } } })).toEqual([`${at}.reference_inputs.image.formats: must name at least one format`]);
    expect(problemsOf({ ...paints, reference_inputs: { video: {} } })).toEqual([`${at}.reference_inputs.video: unknown field`]);
  });
});
