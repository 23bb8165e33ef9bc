import type { Logger } from 'pino';
import type { ReloadTrigger } from '../catalogue/config-reloader.js';
import { describeMissingCredential, type MissingCredential } from '../catalogue/missing-credentials.js';
import { formatProblem } from '../catalogue/problem-list.js';
import type { SettingName } from '../settings/settings-table.js';
import type { CatalogueProblem } from '../catalogue/types.js';

/** How a reload ended, as the log tells it. */
export type ReloadReport =
  | {
      outcome: 'reloaded';
      file: string;
      trigger: ReloadTrigger;
      counts: { providers: number; models: number; endpoints: number };
      /** Changed settings now in effect. */
      applied: SettingName[];
      /** Changed settings that take effect when the server next starts. */
      atRestart: SettingName[];
      missingCredentials: MissingCredential[];
    }
  | { outcome: 'refused'; file: string; trigger: ReloadTrigger; problems: CatalogueProblem[] }
  | { outcome: 'unreadable'; file: string; trigger: ReloadTrigger; cause: string }
  | { outcome: 'nothing to reload'; trigger: ReloadTrigger };

/** Every reload outcome is logged here, and only here. */
export function logReload(logger: Logger, report: ReloadReport): void {
  switch (report.outcome) {
    case 'reloaded': {
      const { file, trigger, counts, applied, atRestart } = report;
      const restartNote = atRestart.length > 0 ? `; takes effect at restart: ${atRestart.map((name) => `settings.${name}`).join(', ')}` : '';
      logger.info(
        { file, trigger, ...counts, settingsApplied: applied, settingsAtRestart: atRestart },
        `catalogue reloaded from ${file}: ${counts.providers} providers, ${counts.models} models, ${counts.endpoints} endpoints${restartNote}`,
      );
      logMissingCredentials(logger, report.missingCredentials);
      return;
    }
    case 'refused':
      logger.error(
        { file: report.file, trigger: report.trigger, problems: report.problems.map(formatProblem) },
        `catalogue ${report.file} has ${report.problems.length} problem(s); keeping the previous catalogue: ${report.problems.map(formatProblem).join('; ')}`,
      );
      return;
    case 'unreadable':
      logger.error({ file: report.file, trigger: report.trigger }, `catalogue ${report.file} cannot be read (${report.cause}); keeping the previous catalogue`);
      return;
    case 'nothing to reload':
      logger.info({ trigger: report.trigger }, 'no config file (the embedded demo): nothing to reload');
      return;
    default: {
      const unhandled: never = report;
      throw new Error(`unhandled reload report ${JSON.stringify(unhandled)}`);
    }
  }
}

/** One warning per provider whose `api_key_env` is unset, at start and at every reload. */
export function logMissingCredentials(logger: Logger, missing: readonly MissingCredential[]): void {
  for (const entry of missing) {
    logger.warn({ provider: entry.provider, variable: entry.variable }, `${entry.path}: ${describeMissingCredential(entry)}`);
  }
}
