import { fieldPath, itemPath, type ProblemList } from './problem-list.js';

export interface ListItem {
  value: unknown;
  path: string;
}

interface IntegerBounds {
  min?: number;
  max?: number;
}

/** Passed as `allowed` to open a mapping whose keys are names chosen by the operator. */
export const ANY_KEY = null;

interface StringRule {
  pattern?: RegExp;
  /** What the pattern requires, e.g. `must look like <author>/<slug>`. */
  patternMessage?: string;
}

interface StringListRule extends StringRule {
  allowed?: readonly string[];
  fallback?: string[];
}

/**
 * Reads one YAML mapping field by field. Every problem is recorded with its path and reading
 * goes on, so one pass reports them all; a field that fails yields a neutral value ('' / 0 /
 * false / []) that never escapes, because a file with any problem loads nothing.
 * A field written as null counts as absent.
 */
export class MappingReader {
  private constructor(
    readonly path: string,
    private readonly fields: Record<string, unknown>,
    readonly problems: ProblemList,
  ) {}

  /** Opens `value` as a mapping holding only `allowed` keys (any with ANY_KEY); null (problem recorded) when it is none. */
  static open(value: unknown, path: string, problems: ProblemList, allowed: readonly string[] | typeof ANY_KEY): MappingReader | null {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Date) {
      problems.add(path, 'must be a mapping');
      return null;
    }
    const fields = value as Record<string, unknown>;
    for (const key of Object.keys(fields)) {
      if (allowed !== ANY_KEY && !allowed.includes(key)) problems.add(fieldPath(path, key), 'unknown field');
    }
    return new MappingReader(path, fields, problems);
  }

  at(key: string): string {
    return fieldPath(this.path, key);
  }

  /** The keys written in the mapping, in file order. */
  keys(): string[] {
    return Object.keys(this.fields);
  }

  has(key: string): boolean {
    const value = this.fields[key];
    return value !== undefined && value !== null;
  }

  raw(key: string): unknown {
    return this.fields[key];
  }

  problem(key: string, message: string): void {
    this.problems.add(this.at(key), message);
  }

  /** A problem with the mapping as a whole. */
  report(message: string): void {
    this.problems.add(this.path, message);
  }

  string(key: string, rule: StringRule = {}): string {
    if (!this.has(key)) return this.missing(key, '');
    return this.readString(key, rule) ?? '';
  }

  optionalString(key: string, rule: StringRule = {}): string | null {
    return this.has(key) ? this.readString(key, rule) : null;
  }

  integer(key: string, bounds: IntegerBounds = {}): number {
    if (!this.has(key)) return this.missing(key, 0);
    return this.readInteger(key, bounds) ?? 0;
  }

  optionalInteger(key: string, bounds: IntegerBounds = {}): number | null {
    return this.has(key) ? this.readInteger(key, bounds) : null;
  }

  boolean(key: string, fallback?: boolean): boolean {
    if (!this.has(key)) return fallback ?? this.missing(key, false);
    const value = this.fields[key];
    if (typeof value === 'boolean') return value;
    this.problem(key, 'must be true or false');
    return false;
  }

  optionalBoolean(key: string): boolean | null {
    return this.has(key) ? this.boolean(key) : null;
  }

  choice<T extends string>(key: string, options: readonly T[], fallback?: T): T | null {
    if (!this.has(key)) return fallback ?? this.missing(key, null);
    const value = this.fields[key];
    const found = options.find((option) => option === value);
    if (found === undefined) this.problem(key, `must be one of ${options.join(', ')}`);
    return found ?? null;
  }

  /** A list of non-empty strings; `fallback` makes the field optional. Duplicates are refused. */
  stringList(key: string, options: StringListRule = {}): string[] {
    if (!this.has(key)) return options.fallback ?? this.missing(key, []);
    const read: string[] = [];
    for (const item of this.list(key)) {
      if (typeof item.value !== 'string' || item.value === '') {
        this.problems.add(item.path, 'must be a non-empty string');
      } else if (options.allowed && !options.allowed.includes(item.value)) {
        this.problems.add(item.path, `must be one of ${options.allowed.join(', ')}`);
      } else if (options.pattern && !options.pattern.test(item.value)) {
        this.problems.add(item.path, options.patternMessage ?? `must match ${options.pattern.source}`);
      } else if (read.includes(item.value)) {
        this.problems.add(item.path, `duplicate "${item.value}"`);
      } else {
        read.push(item.value);
      }
    }
    return read;
  }

  /** The items of a list field, each with its path; a missing field is a problem unless `optional`. */
  list(key: string, optional = false): ListItem[] {
    if (!this.has(key)) return optional ? [] : this.missing(key, []);
    const value = this.fields[key];
    if (!Array.isArray(value)) {
      this.problem(key, 'must be a list');
      return [];
    }
    const listPath = this.at(key);
    return value.map((item: unknown, index) => ({ value: item, path: itemPath(listPath, index) }));
  }

  /** A nested mapping; a missing one is a problem unless `optional`. */
  mapping(key: string, allowed: readonly string[] | typeof ANY_KEY, optional = false): MappingReader | null {
    if (!this.has(key)) return optional ? null : this.missing(key, null);
    return MappingReader.open(this.fields[key], this.at(key), this.problems, allowed);
  }

  private missing<T>(key: string, neutral: T): T {
    this.problem(key, 'required');
    return neutral;
  }

  private readString(key: string, rule: StringRule): string | null {
    const value = this.fields[key];
    if (typeof value !== 'string') {
      this.problem(key, 'must be a string');
      return null;
    }
    if (value.trim() === '') {
      this.problem(key, 'must not be empty');
      return null;
    }
    if (rule.pattern && !rule.pattern.test(value)) {
      this.problem(key, rule.patternMessage ?? `must match ${rule.pattern.source}`);
      return null;
    }
    return value;
  }

  private readInteger(key: string, bounds: IntegerBounds): number | null {
    const value = this.fields[key];
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
      this.problem(key, 'must be an integer');
      return null;
    }
    if (bounds.min !== undefined && value < bounds.min) {
      this.problem(key, `must be at least ${bounds.min}`);
      return null;
    }
    if (bounds.max !== undefined && value > bounds.max) {
      this.problem(key, `must be at most ${bounds.max}`);
      return null;
    }
    return value;
  }
}
