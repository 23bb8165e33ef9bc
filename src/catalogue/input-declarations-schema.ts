import type { MappingReader } from './mapping-reader.js';
import { INPUT_MODALITIES } from './modalities.js';
import type { InputSource } from './types.js';

export const INPUT_SOURCES = ['url', 'base64'] as const satisfies readonly InputSource[];
export const CONTAINER_NAME = /^[a-z0-9][a-z0-9.+-]*$/;

/** Container names with another usual spelling: the one a declaration must use. */
const CONTAINER_SPELLINGS: Readonly<Record<string, string>> = { jpg: 'jpeg', tif: 'tiff' };

type DeclarationKey = 'input_sources' | 'input_containers';

/** `input_sources`: accepted sources (`url`, `base64`) per declared input modality. */
export function readInputSources(
  fields: MappingReader,
  inputModalities: readonly string[],
): Partial<Record<string, InputSource[]>> {
  return readPerModality(fields, 'input_sources', inputModalities, (declaration, modality) => {
    return declaration.stringList(modality, { allowed: INPUT_SOURCES }).filter(isInputSource);
  });
}

/** `input_containers`: accepted container names (`png`, `wav`, …) per declared input modality. */
export function readInputContainers(
  fields: MappingReader,
  inputModalities: readonly string[],
): Partial<Record<string, string[]>> {
  return readPerModality(fields, 'input_containers', inputModalities, (declaration, modality) => {
    const containers = declaration.stringList(modality, {
      pattern: CONTAINER_NAME,
      patternMessage: 'must be a lowercase container name such as png, jpeg, wav or mp3',
    });
    for (const item of declaration.list(modality)) {
      const spelling = typeof item.value === 'string' ? CONTAINER_SPELLINGS[item.value] : undefined;
      if (spelling) declaration.problems.add(item.path, `write "${spelling}" for "${String(item.value)}"`);
    }
    return containers.filter((container) => CONTAINER_SPELLINGS[container] === undefined);
  });
}

function isInputSource(value: string): value is InputSource {
  return INPUT_SOURCES.some((source) => source === value);
}

/**
 * A mapping keyed by modality, each holding a non-empty list. A key must be a known modality
 * (otherwise `unknown field`) that the endpoint lists in `input_modalities`; text has no media
 * form and takes no declaration.
 */
function readPerModality<T>(
  fields: MappingReader,
  key: DeclarationKey,
  inputModalities: readonly string[],
  readList: (declaration: MappingReader, modality: string) => T[],
): Partial<Record<string, T[]>> {
  const declared: Partial<Record<string, T[]>> = {};
  const declaration = fields.mapping(key, INPUT_MODALITIES, true);
  if (!declaration) return declared;
  for (const modality of declaration.keys()) {
    if (!INPUT_MODALITIES.some((known) => known === modality)) continue;
    if (modality === 'text') {
      declaration.problem(modality, `text takes no ${key === 'input_sources' ? 'sources' : 'containers'}`);
      continue;
    }
    if (!inputModalities.includes(modality)) {
      declaration.problem(modality, `${modality} is not among input_modalities`);
      continue;
    }
    const raw = declaration.raw(modality);
    if (!Array.isArray(raw)) declaration.problem(modality, 'must be a list');
    else if (raw.length === 0) declaration.problem(modality, 'must name at least one');
    else declared[modality] = readList(declaration, modality);
  }
  return declared;
}
