import { Option, type Command } from 'commander';
import { CLI_CHANGE } from '../accounts/audit.js';
import { createUser, USER_ROLES, type UserRole } from '../accounts/users.js';
import type { Store } from '../store/store.js';
import { namingFlags, run, text, withDatabase, type Options } from './admin-command.js';
import { readPasswordLine } from './password-input.js';

/** `admin user create`. */
export function registerPeopleCommands(admin: Command): void {
  const user = admin.command('user').description('people who sign in to the web pages of an account');
  withDatabase(user.command('create'))
    .description('add a person who signs in to the approval page and the dashboard of an account')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--email <email>', 'their email: one person per email over all accounts')
    .option('--password <password>', 'their password (8 to 256 characters); prefer --password-stdin')
    .option('--password-stdin', 'read the password from standard input (one line) instead of --password')
    .addOption(new Option('--role <role>', 'owner (changes keys and limits) or member (sees); default: owner for the account\'s first person, member after').choices(USER_ROLES))
    .option('--json', 'print {"user_id"}')
    .action(run(async (store, options) => {
      const accountId = text(options, 'account');
      const email = text(options, 'email');
      const password = await passwordOf(options);
      const role = (options['role'] as UserRole | undefined) ?? (await defaultRole(store, accountId));
      const userId = await namingFlags(
        { account: '--account', email: '--email', password: options['passwordStdin'] === true ? '--password-stdin' : '--password', role: '--role' },
        () => createUser(store, { accountId, email, password, role }, CLI_CHANGE),
      );
      if (options['json']) return JSON.stringify({ user_id: userId });
      return `user ${userId} (${role}) in ${accountId}`;
    }));
}

/** The password from `--password` or standard input: exactly one of the two. */
async function passwordOf(options: Options): Promise<string> {
  const inline = options['password'];
  const fromStdin = options['passwordStdin'] === true;
  if ((typeof inline === 'string') === fromStdin) throw new Error('give exactly one of --password and --password-stdin');
  return typeof inline === 'string' ? inline : readPasswordLine(process.stdin);
}

/** The account's first person owns it; everyone added after is a member unless `--role` says so. */
async function defaultRole(store: Store, accountId: string): Promise<UserRole> {
  const someone = await store.db.selectFrom('users').select('id').where('account_id', '=', accountId).executeTakeFirst();
  return someone ? 'member' : 'owner';
}
