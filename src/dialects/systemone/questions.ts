import { invalidRequest } from '../../core/errors.js';
import type { ContentBody, QuestionBody } from './schema.js';
import { isPlainObject } from '../../core/plain-object.js';

export type QuestionType = 'choice' | 'score' | 'noul';

/** One option a question offers, in order, with the label the model answers it with. */
export interface QuestionOption {
  /** The answer's name for it: the choice option, the level index, or `true` / `false`. */
  name: string;
  /** What the model is told it means; null when the caller gave no description. */
  description: string | null;
  /** A single token the model writes to pick it. */
  label: string;
}

export interface Question {
  key: string;
  type: QuestionType;
  /** The instructions as the model reads them. */
  instructions: string;
  options: QuestionOption[];
}

export const MAX_CHOICE_OPTIONS = 26;
export const MIN_SCORE_LEVELS = 2;
export const MAX_SCORE_LEVELS = 10;
const MAX_KEY_LENGTH = 128;
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Text as the model reads it: a string as is, structured content as indented JSON. */
export function renderContent(content: ContentBody): string {
  return typeof content === 'string' ? content : JSON.stringify(content, null, 2);
}

/** The questions in the caller's order, each with its options and their labels; a bad criteria is a 400 naming it. */
export function readQuestions(questions: Record<string, QuestionBody>): Question[] {
  return Object.entries(questions).map(([key, body]) => {
    if (key === '' || key.length > MAX_KEY_LENGTH) throw invalidRequest('questions', `question keys must be 1 to ${MAX_KEY_LENGTH} characters`);
    const field = `questions.${key}.criteria`;
    const instructions = renderContent(body.instructions);
    switch (body.type) {
      case 'choice':
        return { key, type: body.type, instructions, options: choiceOptions(body.criteria, field) };
      case 'score':
        return { key, type: body.type, instructions, options: scoreOptions(body.criteria, field) };
      case 'noul':
        return { key, type: body.type, instructions, options: noulOptions(body.criteria, field) };
    }
  });
}

/** `choice` criteria: an object mapping 2 to 26 options to a description (or null). */
function choiceOptions(criteria: unknown, field: string): QuestionOption[] {
  if (!isPlainObject(criteria)) throw invalidRequest(field, 'required for a choice question: an object mapping each option to its description');
  const entries = Object.entries(criteria);
  if (entries.length < 2 || entries.length > MAX_CHOICE_OPTIONS) {
    throw invalidRequest(field, `must name 2 to ${MAX_CHOICE_OPTIONS} options, got ${entries.length}`);
  }
  return entries.map(([name, description], index) => {
    if (name.trim() === '') throw invalidRequest(field, 'option names must not be empty');
    return { name, description: descriptionOf(description, `${field}.${name}`), label: LETTERS[index] ?? '' };
  });
}

/** `score` criteria: 2 to 10 level descriptions, lowest level first; levels are numbered from 0. */
function scoreOptions(criteria: unknown, field: string): QuestionOption[] {
  if (!Array.isArray(criteria)) throw invalidRequest(field, 'required for a score question: a list of level descriptions, lowest first');
  if (criteria.length < MIN_SCORE_LEVELS || criteria.length > MAX_SCORE_LEVELS) {
    throw invalidRequest(field, `must list ${MIN_SCORE_LEVELS} to ${MAX_SCORE_LEVELS} levels, got ${criteria.length}`);
  }
  return criteria.map((level: unknown, index) => {
    const description = descriptionOf(level, `${field}[${index}]`);
    if (description === null) throw invalidRequest(`${field}[${index}]`, 'must be a non-empty string');
    return { name: String(index), description, label: String(index) };
  });
}

/** `noul` criteria (optional): what `true` and `false` mean. */
function noulOptions(criteria: unknown, field: string): QuestionOption[] {
  if (criteria !== undefined && !isPlainObject(criteria)) throw invalidRequest(field, 'must be an object with optional true and false descriptions');
  const read = criteria ?? {};
  for (const name of Object.keys(read)) {
    if (name !== 'true' && name !== 'false') throw invalidRequest(`${field}.${name}`, 'only true and false may be described');
  }
  return [
    { name: 'true', description: descriptionOf(read.true, `${field}.true`), label: 'yes' },
    { name: 'false', description: descriptionOf(read.false, `${field}.false`), label: 'no' },
  ];
}

function descriptionOf(value: unknown, field: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.trim() === '') throw invalidRequest(field, 'must be a non-empty string or null');
  return value;
}

