import { SAMPLE_FORMATS, SPEECH_LIMITS } from '../core/speech.js';
import type { MappingReader } from './mapping-reader.js';
import type { ReferenceInputs } from './types.js';

const KINDS = ['audio', 'image'];
const AUDIO_FIELDS = ['formats', 'roles', 'max_bytes'];
const IMAGE_FIELDS = ['formats', 'roles', 'max_bytes', 'max_count'];
const ROLES = ['reference'] as const;

/** Containers a reference picture may come in. */
export const IMAGE_REFERENCE_FORMATS = ['png', 'jpeg', 'webp', 'gif'] as const;
/** The most reference pictures one request may carry (the request schema's own bound). */
export const MAX_IMAGE_REFERENCES = 16;

/**
 * `reference_inputs`: what an endpoint takes to start from, by kind. `audio` is a voice sample for
 * cloning (a text-to-speech endpoint declaring `supports_voice_cloning`); `image` are pictures an
 * image-generation endpoint renders from (one whose outputs include `image`). Each names its
 * formats, roles (only `reference`) and largest size in bytes; pictures also how many one request
 * may carry.
 */
export function readReferenceInputs(fields: MappingReader, context: { outputModalities: readonly string[]; supportsVoiceCloning: boolean }): ReferenceInputs | null {
  const reference = fields.mapping('reference_inputs', KINDS, true);
  if (!reference) return null;
  const audio = readAudio(reference);
  const image = readImage(reference);
  if (audio && !context.supportsVoiceCloning) reference.problem('audio', 'only with supports_voice_cloning: true');
  if (image && !context.outputModalities.includes('image')) reference.problem('image', 'only for endpoints whose output_modalities include image');
  return audio || image ? { audio, image } : null;
}

function readAudio(reference: MappingReader): ReferenceInputs['audio'] {
  const audio = reference.mapping('audio', AUDIO_FIELDS, true);
  if (!audio) return null;
  const formats = audio.stringList('formats', { allowed: SAMPLE_FORMATS });
  if (isEmptyList(audio.raw('formats'))) audio.problem('formats', 'must name at least one format');
  const roles = audio.stringList('roles', { allowed: ROLES, fallback: ['reference'] });
  const maxBytes = audio.optionalInteger('max_bytes', { min: 1, max: SPEECH_LIMITS.sampleBytes });
  return { formats, roles, maxBytes };
}

function readImage(reference: MappingReader): ReferenceInputs['image'] {
  const image = reference.mapping('image', IMAGE_FIELDS, true);
  if (!image) return null;
  const formats = image.stringList('formats', { allowed: IMAGE_REFERENCE_FORMATS });
  if (isEmptyList(image.raw('formats'))) image.problem('formats', 'must name at least one format');
  const roles = image.stringList('roles', { allowed: ROLES, fallback: ['reference'] });
  const maxBytes = image.optionalInteger('max_bytes', { min: 1 });
  const maxCount = image.optionalInteger('max_count', { min: 1, max: MAX_IMAGE_REFERENCES });
  return { formats, roles, maxBytes, maxCount };
}

/** A list written with nothing in it (`[]`), where the key must name at least one. */
export function isEmptyList(value: unknown): boolean {
  return Array.isArray(value) && value.length === 0;
}
