import { Option, type Command } from 'commander';
import { pino } from 'pino';
import type { CheckOutcome } from '../prober/prober.js';
import { DEFAULT_DATABASE_URL } from '../store/database-url.js';
import { renamedForSource } from './option-source.js';

interface ProbeOptions {
  config?: string;
  database: string;
  json?: boolean;
}

/**
 * `switchyard probe [--config FILE] [--database URL] [--json]`: runs every capability check once
 * and prints the verdicts, as a table or as JSON. Exit 0 once the run completed, whatever the
 * verdicts; a failed check is a verdict, not a failure of the command.
 */
export function registerProbeCommand(program: Command): void {
  program
    .command('probe')
    .description('Run the capability checks once against every endpoint and print the verdicts')
    .addOption(new Option('--config <file>', 'catalogue/config YAML (the embedded demo without one)').env('SWITCHYARD_CONFIG'))
    .addOption(new Option('--database <url>', 'sqlite:PATH or postgres://… where verdicts are stored').env('SWITCHYARD_DATABASE_URL').default(DEFAULT_DATABASE_URL))
    .option('--json', 'print {"checks": [...]} instead of a table')
    .action(async (options: ProbeOptions, command: Command) => {
      const { probeOnce } = await import('../runtime/probe-once.js');
      // what the prober logs goes to standard error, so standard output holds only the verdicts
      const logger = pino({ level: process.env.LOG_LEVEL ?? 'error' }, pino.destination(2));
      let outcomes: CheckOutcome[];
      try {
        outcomes = await probeOnce({ ...(options.config && { configPath: options.config }), databaseUrl: options.database, logger });
      } catch (error) {
        throw renamedForSource(error, command);
      }
      process.stdout.write(options.json ? `${JSON.stringify({ checks: outcomes.map(outcomeJson) })}\n` : verdictTable(outcomes));
    });
}

type VerdictWord = 'pass' | 'fail' | 'inconclusive';

function verdictWord(outcome: CheckOutcome): VerdictWord {
  if (!outcome.verdict) return 'inconclusive';
  return outcome.verdict.passed ? 'pass' : 'fail';
}

function detailOf(outcome: CheckOutcome): string {
  return outcome.verdict?.detail ?? outcome.inconclusive ?? '';
}

function outcomeJson(outcome: CheckOutcome): Record<string, unknown> {
  const { verdict } = outcome;
  return {
    model: outcome.modelId,
    endpoint: outcome.endpointId,
    capability: outcome.capability,
    verdict: verdictWord(outcome),
    detail: detailOf(outcome),
    serving_revision: verdict?.revision ?? null,
    probe_version: verdict?.probeVersion ?? null,
    checked_at: verdict ? new Date(verdict.at).toISOString() : null,
  };
}

/** One line per check, columns aligned: endpoint, capability, verdict, what was seen. */
export function verdictTable(outcomes: readonly CheckOutcome[]): string {
  if (outcomes.length === 0) return 'no endpoint declares a capability that is checked\n';
  const rows = [['ENDPOINT', 'CAPABILITY', 'VERDICT', 'DETAIL'], ...outcomes.map((outcome) => [outcome.endpointId, outcome.capability, verdictWord(outcome), detailOf(outcome)])];
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  const lines = rows.map((row) => row.map((cell, column) => (column < 3 ? cell.padEnd(widths[column] ?? 0) : cell)).join('  ').trimEnd());
  const failed = outcomes.filter((outcome) => verdictWord(outcome) === 'fail').length;
  const inconclusive = outcomes.filter((outcome) => !outcome.verdict).length;
  return `${lines.join('\n')}\n${outcomes.length} checks: ${outcomes.length - failed - inconclusive} passed, ${failed} failed, ${inconclusive} inconclusive\n`;
}
