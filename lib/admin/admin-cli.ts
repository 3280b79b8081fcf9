import 'server-only';
import type { z } from 'zod';
import type { Database } from '@/lib/db';
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
import { changeManagerSystems, listAccounts, previewManagerSystems, type BulkChange } from '@/lib/admin/accounts';
import { approvalIdSchema } from '@/lib/systems/schemas';
import { connectionOfApproval, systemSelectionSchema } from '@/lib/systems/selection';

export const ADMIN_CLI_USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  create --email <e-mail> --name <name> [--role admin|manager]
      Creates an account (an admin unless --role manager). Asks for the password.
  reset-password --email <e-mail>
      Sets a new password and signs the account out everywhere. Asks for the password.
  list
      Lists every account with its role (and a manager's number of systems).
  assign --manager <e-mail> (--area <area> | --match <text> | --approval <approval id> | --all) [--dry-run]
      Gives the manager every system the filter selects, in one step: text in the name, street
      or city, an area (any case), the systems of one approval; --area, --match and --approval
      combine (all must hold). --dry-run counts them and changes nothing.
  unassign --manager <e-mail> (…the same filters…) [--dry-run]
      Takes those systems back from the manager.

Options:
  --password-stdin   Read the password from the first line of standard input (for automation)
                     instead of asking for it twice on the terminal.

Examples:
  npm run admin -- assign --manager anna@example.com --area Norr --dry-run
  npm run admin -- assign --manager anna@example.com --area Norr
  npm run admin -- unassign --manager anna@example.com --match Storgatan`;

const FLAGS = new Set(['password-stdin', 'all', 'dry-run']);
const systemsWord = (n: number) => `${n} ${n === 1 ? 'system' : 'systems'}`;

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
    if (FLAGS.has(name)) options[name] = true;
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
 * `npm run admin -- …`: the first admin on a new installation, account recovery, and a manager's
 * systems in bulk (issue 49), from the command line (scripts/admin.ts wires it to the portal's database and the terminal).
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
    const bulk = ['manager', 'match', 'area', 'approval', 'all', 'dry-run'];
    const allowed: Record<string, string[]> = { create: ['email', 'name', 'role', 'password-stdin'], 'reset-password': ['email', 'password-stdin'], list: [], assign: bulk, unassign: bulk };
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
    if (command === 'assign' || command === 'unassign') return await bulkChange(db, command, options, io);
    const rows = (await listAccounts(db)).sort((a, b) => a.role.localeCompare(b.role) || a.email.localeCompare(b.email));
    if (rows.length === 0) io.out('No accounts yet. Create the first admin with: npm run admin -- create --email … --name …');
    for (const r of rows) io.out(`${r.role.padEnd(8)} ${r.email}  ${r.name}${r.role === 'manager' ? `  (${systemsWord(r.systemCount)})` : ''}${r.deactivatedAt ? '  (deactivated)' : ''}`);
    return 0;
  } catch (error) {
    if (error instanceof CliError) {
      io.err(error.message);
      return error.exitCode;
    }
    throw error;
  }
}

/** `assign` / `unassign`: a manager gets or loses every system a filter selects, counted first with --dry-run. */
async function bulkChange(db: Database, change: BulkChange, options: Record<string, string | true>, io: AdminCliIo): Promise<number> {
  const email = field(emailSchema, options.manager, 'manager');
  const text = (name: string) => {
    const value = options[name];
    if (value === true) throw new CliError(`--${name} needs a value.`, 2);
    return value;
  };
  let connectionId: string | undefined;
  if (options.approval !== undefined) {
    // The approval id is a grant: looked up by its fingerprint, and never printed back.
    const approvalId = field(approvalIdSchema, options.approval, 'approval');
    connectionId = await connectionOfApproval(db, approvalId);
    if (!connectionId) throw new CliError('No connected approval has that id; connect it first on the admin pages. Nothing was changed.', 1);
  }
  const parsed = systemSelectionSchema.safeParse({ match: text('match'), area: text('area'), connectionId, all: options.all === true ? true : undefined });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.length ? `--${String(issue.path[0])} ` : '';
    throw new CliError(`${path}${issue ? english(issueMessage(issue)) : 'is invalid'}. Nothing was changed.`.replace(/^./, (c) => c.toUpperCase()), 2);
  }
  const user = await findUserByEmail(db, email);
  if (!user) throw new CliError(`No account has the e-mail ${email}.`, 1);
  if (user.role !== 'manager') throw new CliError(`${user.name} <${user.email}> is an admin; systems are given to managers only (admins see every system).`, 1);
  const who = `${user.name} <${user.email}>`;
  if (options['dry-run'] === true) {
    const { matching, assigned } = await previewManagerSystems(db, user.id, parsed.data);
    const would = change === 'assign' ? `would give ${who} ${systemsWord(matching - assigned)}` : `would take ${systemsWord(assigned)} back from ${who}`;
    io.out(`${systemsWord(matching)} match; ${assigned} of them ${assigned === 1 ? 'is' : 'are'} ${user.name}'s now. This ${would}. Nothing was changed (dry run).`);
    return 0;
  }
  const result = await changeManagerSystems(db, COMMAND_LINE_ACTOR, user.id, parsed.data, change);
  if (result.matching === 0) io.out(`No system matches; nothing was changed.`);
  else if (result.changed === 0) io.out(change === 'assign' ? `${who} already has all ${systemsWord(result.matching)} that match; nothing was changed.` : `${who} has none of the ${systemsWord(result.matching)} that match; nothing was changed.`);
  else if (change === 'assign') io.out(`Gave ${who} ${systemsWord(result.changed)} (${result.matching} matched; ${result.matching - result.changed} already were theirs).`);
  else io.out(`Took ${systemsWord(result.changed)} back from ${who} (${result.matching} matched).`);
  return 0;
}
