import 'server-only';
import { asc } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database } from '@/lib/db';
import { users } from '@/lib/db/schema';
import { passwordWeakness } from '@/lib/auth/password-policy';
import { createTranslator } from 'use-intl/core';
import { issueMessage } from '@/lib/errors/validation-issue';
import type { Message } from '@/lib/i18n/message';
import en from '@/messages/en.json';

/** The command line speaks English (its operators read the logs too). */
const t = createTranslator({ locale: 'en', messages: en }) as unknown as (key: string, values?: Message['values']) => string;
const english = (message: Message): string => t(message.key, message.values);
import { emailSchema, nameSchema, roleSchema } from '@/lib/auth/schemas';
import { COMMAND_LINE_ACTOR, recordAudit } from '@/lib/admin/audit';
import { createUser, findUserByEmail, setPassword } from '@/lib/auth/users';

export const ADMIN_CLI_USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  create --email <e-mail> --name <name> [--role admin|manager]
      Creates an account (an admin unless --role manager). Asks for the password.
  reset-password --email <e-mail>
      Sets a new password and signs the account out everywhere. Asks for the password.
  list
      Lists every account with its role.

Options:
  --password-stdin   Read the password from the first line of standard input (for automation)
                     instead of asking for it twice on the terminal.`;

/** How the command meets the outside world: the password prompt and the lines it prints. */
export interface AdminCliIo {
  /** The new password (asked twice on a terminal, or read from stdin). */
  readPassword: () => Promise<string>;
  out: (line: string) => void;
  err: (line: string) => void;
}

/** A command line mistake or a refusal: printed as it is, exit code 2 (usage) or 1. */
class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2,
  ) {
    super(message);
  }
}

function parseOptions(args: string[]): Record<string, string | true> {
  const options: Record<string, string | true> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) throw new CliError(`Unexpected argument "${arg}".`, 2);
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (name === 'password-stdin') options[name] = true;
    else if (inline !== undefined) options[name] = inline;
    else {
      const value = args[++i];
      if (value === undefined || value.startsWith('--')) throw new CliError(`--${name} needs a value.`, 2);
      options[name] = value;
    }
  }
  return options;
}

function field<T>(schema: z.ZodType<T>, value: string | true | undefined, name: string): T {
  if (value === undefined || value === true) throw new CliError(`--${name} is required.`, 2);
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new CliError(`--${name} ${parsed.error.issues[0] ? english(issueMessage(parsed.error.issues[0])) : 'is invalid'}.`, 2);
  return parsed.data;
}

async function newPassword(io: AdminCliIo, account: { email: string; name?: string }): Promise<string> {
  const password = await io.readPassword();
  const weakness = passwordWeakness(password, account);
  if (weakness) throw new CliError(`The password ${weakness}. Nothing was changed.`, 1);
  return password;
}

/**
 * `npm run admin -- …`: the first admin on a new installation, and account recovery, from the
 * command line (scripts/admin.ts wires it to the portal's database and the terminal).
 * Returns the process exit code.
 */
export async function runAdminCommand(db: Database, argv: string[], io: AdminCliIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
      io.out(ADMIN_CLI_USAGE);
      return command === undefined ? 2 : 0;
    }
    const options = parseOptions(rest);
    const allowed: Record<string, string[]> = { create: ['email', 'name', 'role', 'password-stdin'], 'reset-password': ['email', 'password-stdin'], list: [] };
    const known = allowed[command];
    if (!known) throw new CliError(`Unknown command "${command}".\n\n${ADMIN_CLI_USAGE}`, 2);
    const unknown = Object.keys(options).filter((o) => !known.includes(o));
    if (unknown.length > 0) throw new CliError(`${command} takes no --${unknown[0]}.`, 2);

    if (command === 'create') {
      const email = field(emailSchema, options.email, 'email');
      const name = field(nameSchema, options.name, 'name');
      const role = options.role === undefined ? 'admin' : field(roleSchema, options.role, 'role');
      if (await findUserByEmail(db, email)) throw new CliError(`An account with the e-mail ${email} already exists; use reset-password to set its password.`, 1);
      const password = await newPassword(io, { email, name });
      const user = await db.transaction(async (tx) => {
        const created = await createUser(tx, { email, name, role, password });
        await recordAudit(tx, COMMAND_LINE_ACTOR, { action: 'account.create', targetType: 'account', targetId: created.id, targetName: created.name, detail: { role: created.role, email: created.email } });
        return created;
      });
      io.out(`Created ${user.role} ${user.name} <${user.email}>. They can sign in now.`);
      return 0;
    }
    if (command === 'reset-password') {
      const email = field(emailSchema, options.email, 'email');
      const user = await findUserByEmail(db, email);
      if (!user) throw new CliError(`No account has the e-mail ${email}.`, 1);
      const password = await newPassword(io, user);
      await db.transaction(async (tx) => {
        await setPassword(tx, user.id, password);
        await recordAudit(tx, COMMAND_LINE_ACTOR, { action: 'account.password-reset', targetType: 'account', targetId: user.id, targetName: user.name });
      });
      io.out(`New password set for ${user.name} <${user.email}>; their open sessions were signed out.`);
      return 0;
    }
    const rows = await db.select({ email: users.email, name: users.name, role: users.role, deactivatedAt: users.deactivatedAt }).from(users).orderBy(asc(users.role), asc(users.email));
    if (rows.length === 0) io.out('No accounts yet. Create the first admin with: npm run admin -- create --email … --name …');
    for (const r of rows) io.out(`${r.role.padEnd(8)} ${r.email}  ${r.name}${r.deactivatedAt ? '  (deactivated)' : ''}`);
    return 0;
  } catch (error) {
    if (error instanceof CliError) {
      io.err(error.message);
      return error.exitCode;
    }
    throw error;
  }
}
