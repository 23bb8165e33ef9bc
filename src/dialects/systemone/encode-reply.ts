import type { CollectedReply } from '../../core/collect.js';
import type { ReplyAccounting } from '../shared/reply-meta.js';
import { typedAnswer } from './answers.js';
import type { Question } from './questions.js';
import { readDistribution } from './readout.js';

export interface AnsweredQuestion {
  question: Question;
  reply: CollectedReply;
}

/** Every question's typed answer by key, or the keys of the questions whose reply named no option. */
export type ReadAnswers = { ok: true; answers: Record<string, Record<string, unknown>> } | { ok: false; unanswered: string[] };

/**
 * Reads each reply as its question's typed answer: from the answer token's log-probabilities, else
 * from the label the model wrote. A reply that names none of its question's options leaves that
 * question unanswered, and the request then has no complete answer to give.
 */
export function readAnswers(answered: readonly AnsweredQuestion[]): ReadAnswers {
  const answers: Record<string, Record<string, unknown>> = {};
  const unanswered: string[] = [];
  for (const { question, reply } of answered) {
    const distribution = readDistribution(question.options, { text: reply.text, ...(reply.logprobs && { logprobs: reply.logprobs }) });
    if (distribution) answers[question.key] = typedAnswer(question, distribution);
    else unanswered.push(question.key);
  }
  return unanswered.length > 0 ? { ok: false, unanswered } : { ok: true, answers };
}

/**
 * The typed-decision reply: `{id, model, provider, answers{key: answer}, usage{input_tokens,
 * output_tokens, cost}}`, every question answered; a count the endpoint did not report is left out
 * of `usage`.
 */
export function encodeDecisionReply(
  answers: Record<string, Record<string, unknown>>,
  meta: { id: string; model: string; provider: string },
  accounting: ReplyAccounting,
): Record<string, unknown> {
  const usage: Record<string, number> = {};
  if (accounting.usage?.promptTokens !== undefined) usage.input_tokens = accounting.usage.promptTokens;
  if (accounting.usage?.completionTokens !== undefined) usage.output_tokens = accounting.usage.completionTokens;
  usage.cost = accounting.cost;
  return { id: meta.id, model: meta.model, provider: meta.provider, answers, usage };
}
