import { ANY_KEY, MappingReader } from './mapping-reader.js';
import type { ParameterDescriptor } from './types.js';

export const PARAMETER_TYPES = ['boolean', 'integer', 'number', 'string'] as const satisfies readonly ParameterDescriptor['type'][];
export const PASSTHROUGH_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

const DESCRIPTOR_FIELDS = ['type', 'minimum', 'maximum', 'enum'];
const RANGE_KEYS = ['minimum', 'maximum'] as const;

/** An endpoint's `passthrough_parameters`: descriptors by the name `provider.options` uses. */
export function readPassthrough(fields: MappingReader): Map<string, ParameterDescriptor> {
  return readDescriptors(fields.mapping('passthrough_parameters', ANY_KEY, true));
}

/** A mapping of parameter descriptors by name (passthrough parameters, render parameters). */
export function readDescriptors(parameters: MappingReader | null): Map<string, ParameterDescriptor> {
  const declared = new Map<string, ParameterDescriptor>();
  if (!parameters) return declared;
  for (const name of parameters.keys()) {
    if (!PASSTHROUGH_NAME.test(name)) {
      parameters.problem(name, 'name must be 1 to 64 letters, digits, "_", "." or "-"');
      continue;
    }
    const descriptor = readDescriptor(parameters, name);
    if (descriptor) declared.set(name, descriptor);
  }
  return declared;
}

function readDescriptor(parameters: MappingReader, name: string): ParameterDescriptor | null {
  const fields = MappingReader.open(parameters.raw(name), parameters.at(name), parameters.problems, DESCRIPTOR_FIELDS);
  if (!fields) return null;
  const type = fields.choice('type', PARAMETER_TYPES);
  if (type === null) return null;
  const descriptor: ParameterDescriptor = { type };
  readRange(fields, descriptor);
  readEnum(fields, descriptor);
  return descriptor;
}

/** `minimum` / `maximum`: numeric types only, integers for an integer, minimum ≤ maximum. */
function readRange(fields: MappingReader, descriptor: ParameterDescriptor): void {
  for (const key of RANGE_KEYS) {
    if (!fields.has(key)) continue;
    if (descriptor.type !== 'integer' && descriptor.type !== 'number') {
      fields.problem(key, 'only for integer or number parameters');
      continue;
    }
    const value = fields.raw(key);
    if (matchesType(value, descriptor.type)) descriptor[key] = value as number;
    else fields.problem(key, descriptor.type === 'integer' ? 'must be an integer' : 'must be a number');
  }
  const { minimum, maximum } = descriptor;
  if (minimum !== undefined && maximum !== undefined && minimum > maximum) {
    fields.problem('maximum', `must be at least minimum (${minimum})`);
  }
}

/** `enum`: a non-empty list of distinct values of the parameter's type, inside its range. */
function readEnum(fields: MappingReader, descriptor: ParameterDescriptor): void {
  if (!fields.has('enum')) return;
  if (descriptor.type === 'boolean') {
    fields.problem('enum', 'only for integer, number or string parameters');
    return;
  }
  const items = fields.list('enum');
  if (Array.isArray(fields.raw('enum')) && items.length === 0) fields.problem('enum', 'must name at least one value');
  const values: (string | number)[] = [];
  for (const item of items) {
    const value = item.value;
    if (!matchesType(value, descriptor.type)) {
      fields.problems.add(item.path, `must be ${descriptor.type === 'integer' ? 'an integer' : `a ${descriptor.type}`}`);
    } else if (values.includes(value as string | number)) {
      fields.problems.add(item.path, `duplicate ${JSON.stringify(value)}`);
    } else if (typeof value === 'number' && !withinRange(value, descriptor)) {
      fields.problems.add(item.path, 'outside minimum/maximum');
    } else {
      values.push(value as string | number);
    }
  }
  if (items.length > 0) descriptor.enum = values;
}

function matchesType(value: unknown, type: ParameterDescriptor['type']): boolean {
  switch (type) {
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'string':
      return typeof value === 'string';
    default: {
      const unknownType: never = type;
      return unknownType;
    }
  }
}

function withinRange(value: number, descriptor: ParameterDescriptor): boolean {
  return (descriptor.minimum === undefined || value >= descriptor.minimum) && (descriptor.maximum === undefined || value <= descriptor.maximum);
}
