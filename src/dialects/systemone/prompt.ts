import type { CoreMessage } from '../../core/request.js';
import type { Question, QuestionOption } from './questions.js';

const SYSTEM = 'You judge a state. Read the state and the question, then answer with exactly one option label and nothing else: no words, no punctuation, no explanation.';

/**
 * The conversation one question is asked in: the state, the question, its options with their
 * labels, and the instruction to answer with one label, so the answer's first token is the pick
 * and its log-probabilities spread over the labels.
 */
export function questionMessages(state: string, question: Question): CoreMessage[] {
  const user = [
    'State:',
    state,
    '',
    `Question: ${question.instructions}`,
    optionsHeading(question),
    ...question.options.map((option) => optionLine(question, option)),
    '',
    `Answer with one of: ${question.options.map((option) => option.label).join(', ')}.`,
  ].join('\n');
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: user },
  ];
}

function optionsHeading(question: Question): string {
  switch (question.type) {
    case 'choice':
      return 'Options:';
    case 'score':
      return 'Levels, lowest first:';
    case 'noul':
      return 'Answer yes if the statement holds, no otherwise:';
  }
}

function optionLine(question: Question, option: QuestionOption): string {
  if (question.type === 'choice') return `${option.label}: ${option.name}${option.description ? ` (${option.description})` : ''}`;
  return `${option.label}: ${option.description ?? (option.name === 'true' ? 'true' : 'false')}`;
}
