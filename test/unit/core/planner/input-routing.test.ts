import { describe, expect, test } from 'vitest';
import type { ContentPart } from '../../../../src/core/request.js';
import { chatCatalogue, endpoint } from '../../../fixtures/planner/catalogue-yaml.js';
import { chatRequest, refusalOf, rejectionsOf, routedIds } from '../../../fixtures/planner/planning.js';

const ALPHA = 'alpha/acme/chat';
const BETA = 'beta/acme/chat';
const GAMMA = 'gamma/acme/chat';

const PNG_DATA = 'data:image/png;base64,iVBORw0KGgo=';
const JPEG_DATA = 'data:image/jpeg;base64,/9j/4AAQ';
const WAV_BYTES = 'UklGRiQAAABXQVZF';

function turn(...parts: ContentPart[]) {
  return chatRequest({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Look at this' }, ...parts] }] });
}

function image(url: string): ContentPart {
  return { type: 'image_url', image_url: { url } };
}

function inputAudio(format: string): ContentPart {
  return { type: 'input_audio', input_audio: { data: WAV_BYTES, format } };
}

function audioUrl(url: string): ContentPart {
  return { type: 'audio_url', audio_url: { url } };
}

describe('rule 10: input modalities, sources and containers', () => {
  const catalogue = chatCatalogue(
    endpoint('alpha', { input_modalities: ['text', 'image'], input_sources: { image: ['url'] }, input_containers: { image: ['png'] } }),
    endpoint('beta', { input_modalities: ['text', 'image'], input_sources: { image: ['url', 'base64'] }, input_containers: { image: ['png'] } }),
    endpoint('gamma', { input_modalities: ['text'] }),
  );

  test('a part goes only to endpoints declaring its input modality', () => {
    expect(routedIds(catalogue, turn(image('https://example.com/cat.png'))).sort()).toEqual([ALPHA, BETA]);
  });

  test('a text-only conversation is not narrowed by media declarations', () => {
    expect(routedIds(catalogue, chatRequest()).sort()).toEqual([ALPHA, BETA, GAMMA]);
  });

  test('when no endpoint accepts a part the turn carries, the answer is 503 naming the modality', () => {
    const textOnly = chatCatalogue(endpoint('gamma', { input_modalities: ['text'] }));
    const error = refusalOf(textOnly, turn(image('https://example.com/cat.png')));
    expect(error.status).toBe(503);
    expect(error.code).toBe('no_route');
    expect(error.message).toMatch(/image/);
    expect(rejectionsOf(error)[0]?.reason).toMatch(/image/);
  });

  test('an endpoint declaring only url sources cannot take inline image bytes', () => {
    expect(routedIds(catalogue, turn(image(PNG_DATA)))).toEqual([BETA]);
  });

  test('an endpoint declaring containers refuses an inline part in another container', () => {
    expect(refusalOf(catalogue, turn(image(JPEG_DATA))).status).toBe(503);
  });

  test('a part behind an https URL names no container, so no container rule withholds it', () => {
    expect(routedIds(catalogue, turn(image('https://example.com/photo.jpeg'))).sort()).toEqual([ALPHA, BETA]);
  });

  test('every part of the turn must be accepted', () => {
    const error = refusalOf(catalogue, turn(image('https://example.com/cat.png'), audioUrl('https://example.com/a.wav')));
    expect(error.status).toBe(503);
    expect(error.message).toMatch(/audio/);
  });
});

describe('rule 11: input_audio and audio_url are the same audio', () => {
  const catalogue = chatCatalogue(
    endpoint('beta', { input_modalities: ['text', 'audio'], input_sources: { audio: ['url'] } }),
    endpoint('gamma', { input_modalities: ['text', 'audio'], input_sources: { audio: ['base64'] }, input_containers: { audio: ['wav'] } }),
  );

  test('an endpoint that fetches audio cannot be handed input_audio bytes', () => {
    expect(routedIds(catalogue, turn(inputAudio('wav')))).toEqual([GAMMA]);
  });

  test('a turn carrying bytes is refused when only fetching endpoints serve audio', () => {
    const fetching = chatCatalogue(endpoint('beta', { input_modalities: ['text', 'audio'], input_sources: { audio: ['url'] } }));
    const error = refusalOf(fetching, turn(inputAudio('wav')));
    expect(error.status).toBe(503);
    expect(rejectionsOf(error)).toEqual([{ endpoint: BETA, reason: expect.stringMatching(/audio/) }]);
  });

  test('an audio_url data URL is bytes too and follows the same rule', () => {
    expect(routedIds(catalogue, turn(audioUrl(`data:audio/wav;base64,${WAV_BYTES}`)))).toEqual([GAMMA]);
  });

  test('audio behind an https URL goes to the fetching endpoint, not the bytes-only one', () => {
    expect(routedIds(catalogue, turn(audioUrl('https://example.com/clip.wav')))).toEqual([BETA]);
  });

  test('input_audio in a container the endpoint does not declare is refused', () => {
    const error = refusalOf(catalogue, turn(inputAudio('mp3')));
    expect(error.status).toBe(503);
    expect(error.message).toMatch(/audio/);
  });
});

describe('rule 12: output modalities are a routing promise', () => {
  const catalogue = chatCatalogue(
    endpoint('alpha', { output_modalities: ['text', 'image'] }),
    endpoint('beta', { output_modalities: ['text', 'audio'] }),
    endpoint('gamma', { output_modalities: ['text'] }),
  );

  test.each([
    ['image', ALPHA],
    ['audio', BETA],
  ])('modalities naming %s goes only to endpoints outputting it', (modality, expected) => {
    expect(routedIds(catalogue, chatRequest({ outputModalities: [modality] }))).toEqual([expected]);
  });

  test('modalities naming both needs an endpoint declaring both; otherwise 503 naming the modality', () => {
    const error = refusalOf(catalogue, chatRequest({ outputModalities: ['image', 'audio'] }));
    expect(error.status).toBe(503);
    expect(error.message).toMatch(/image|audio/);
  });

  test('with no image output anywhere the answer is 503 naming image', () => {
    const textOnly = chatCatalogue(endpoint('gamma', { output_modalities: ['text'] }));
    const error = refusalOf(textOnly, chatRequest({ outputModalities: ['image'] }));
    expect(error.status).toBe(503);
    expect(error.message).toMatch(/image/);
  });
});
