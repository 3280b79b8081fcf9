import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { listAudit } from '@/lib/admin/audit';
import { eq } from 'drizzle-orm';
import { openDatabase } from '@/lib/db/client';
import { connections, managerSystems, systems, users } from '@/lib/db/schema';
import { sha256 } from '@/lib/crypto';
import { randomUUID } from 'node:crypto';
import { describeWithDb } from '@/tests/db';
import { runAdminCommand } from './admin-cli';
import { verifyPassword } from '@/lib/auth/passwords';
import { createUser, findUserByEmail } from '@/lib/auth/users';

function io(password = 'a-long-enough-secret') {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { readPassword: () => Promise.resolve(password), out: (l: string) => out.push(l), err: (l: string) => err.push(l) } };
}

describeWithDb('npm run admin', (ctx) => {
  it('creates the first admin, who can then sign in with that password', async () => {
    const { db } = ctx().handle;
    const run = io('kaffe-och-tvätt-2026');
    expect(await runAdminCommand(db, ['create', '--email', 'Ops@Example.se', '--name', 'Olga Ops'], run.io)).toBe(0);
    expect(run.out).toEqual(['Created admin Olga Ops <ops@example.se>. They can sign in now.']);
    const user = await findUserByEmail(db, 'ops@example.se');
    expect(user?.role).toBe('admin');
    expect(await verifyPassword('kaffe-och-tvätt-2026', user?.passwordHash)).toBe(true);
    // The admin audit log says the command line did it.
    const audit = await listAudit(db, 1);
    expect(audit.entries.find((e) => e.targetId === user?.id)).toMatchObject({ action: 'account.create', actorId: null, actorName: 'Command line (npm run admin)', targetName: 'Olga Ops' });
  });

  it('refuses weak passwords and duplicates with a reason, changing nothing', async () => {
    const { db } = ctx().handle;
    const weak = io('password123');
    expect(await runAdminCommand(db, ['create', '--email', 'weak@example.se', '--name', 'Weak'], weak.io)).toBe(1);
    expect(weak.err).toEqual(['The password is one of the most common passwords; choose another. Nothing was changed.']);
    expect(await findUserByEmail(db, 'weak@example.se')).toBeUndefined();
    const twice = io();
    expect(await runAdminCommand(db, ['create', '--email', 'ops@example.se', '--name', 'Again'], twice.io)).toBe(1);
    expect(twice.err[0]).toMatch(/already exists; use reset-password/);
  });

  it('resets a password and signs the account out everywhere', async () => {
    const { db } = ctx().handle;
    const before = await findUserByEmail(db, 'ops@example.se');
    const run = io('ny-lösen-för-olga');
    expect(await runAdminCommand(db, ['reset-password', '--email', 'ops@example.se'], run.io)).toBe(0);
    const after = await findUserByEmail(db, 'ops@example.se');
    expect(await verifyPassword('ny-lösen-för-olga', after?.passwordHash)).toBe(true);
    expect(after?.sessionVersion).toBe((before?.sessionVersion ?? 0) + 1);
    expect((await listAudit(db, 1)).entries[0]).toMatchObject({ action: 'account.password-reset', actorId: null, targetId: after?.id });
    const missing = io();
    expect(await runAdminCommand(db, ['reset-password', '--email', 'nobody@example.se'], missing.io)).toBe(1);
    expect(missing.err).toEqual(['No account has the e-mail nobody@example.se.']);
  });

  it('says what is wrong with a command line (exit 2)', async () => {
    const { db } = ctx().handle;
    for (const [argv, message] of [
      [['create', '--name', 'X'], '--email is required.'],
      [['create', '--email', 'not-an-address', '--name', 'X'], '--email must be an e-mail address.'],
      [['create', '--email', 'x@example.se', '--name', 'X', '--role', 'root'], /--role /],
      [['create', '--email', 'x@example.se', '--name', 'X', '--colour', 'red'], 'create takes no --colour.'],
      [['frobnicate'], /^Unknown command "frobnicate"/],
    ] as const) {
      const run = io();
      expect(await runAdminCommand(db, [...argv], run.io)).toBe(2);
      expect(run.err[0]).toMatch(typeof message === 'string' ? new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')}$`) : message);
    }
    const list = io();
    expect(await runAdminCommand(db, ['list'], list.io)).toBe(0);
    expect(list.out).toEqual([expect.stringMatching(/^admin +ops@example\.se +Olga Ops$/)]);
    // A deactivated account is listed as such.
    await db.update(users).set({ deactivatedAt: new Date() }).where(eq(users.email, 'ops@example.se'));
    const again = io();
    await runAdminCommand(db, ['list'], again.io);
    expect(again.out).toEqual([expect.stringMatching(/^admin +ops@example\.se +Olga Ops +\(deactivated\)$/)]);
  });
});

describeWithDb('npm run admin -- assign / unassign (issue 49)', (ctx) => {
  const ids = Array.from({ length: 5 }, () => randomUUID());
  const approvalId = randomUUID();

  it('gives a manager every system of an area, an approval, a text or all, counted first with --dry-run; unassign takes them back', async () => {
    const { db } = ctx().handle;
    const [a, b] = await db
      .insert(connections)
      .values([
        { approvalFingerprint: sha256(approvalId), apiKeyCiphertext: 'x' },
        { approvalFingerprint: sha256(randomUUID()), apiKeyCiphertext: 'x' },
      ])
      .returning({ id: connections.id });
    await db.insert(systems).values([
      { deviceId: ids[0]!, connectionId: a!.id, name: 'Brf Norrgården', area: 'Norr', city: 'Umeå' },
      { deviceId: ids[1]!, connectionId: a!.id, name: 'Brf Polstjärnan', area: 'Norr', street: 'Storgatan 2' },
      { deviceId: ids[2]!, connectionId: a!.id, name: 'Brf Solsidan', area: 'Söder' },
      { deviceId: ids[3]!, connectionId: b!.id, name: 'Brf Storgatan', area: 'Söder' },
      { deviceId: ids[4]!, connectionId: b!.id, name: 'Brf Ängen' },
    ]);
    const anna = await createUser(db, { email: 'anna@example.com', name: 'Anna Berg', role: 'manager' });
    const mine = async () => (await db.select({ deviceId: managerSystems.deviceId }).from(managerSystems).where(eq(managerSystems.userId, anna.id))).length;
    const cli = async (...argv: string[]) => {
      const r = io();
      const code = await runAdminCommand(db, argv, r.io);
      return { code, out: r.out, err: r.err };
    };

    expect(await cli('assign', '--manager', 'Anna@Example.com', '--area', 'norr', '--dry-run')).toEqual({
      code: 0,
      out: ["2 systems match; 0 of them are Anna Berg's now. This would give Anna Berg <anna@example.com> 2 systems. Nothing was changed (dry run)."],
      err: [],
    });
    expect(await mine()).toBe(0);
    expect(await cli('assign', '--manager', 'anna@example.com', '--area', 'Norr')).toMatchObject({ code: 0, out: ['Gave Anna Berg <anna@example.com> 2 systems (2 matched; 0 already were theirs).'] });
    expect(await cli('assign', '--manager', 'anna@example.com', '--area', 'Norr')).toMatchObject({ code: 0, out: ['Anna Berg <anna@example.com> already has all 2 systems that match; nothing was changed.'] });
    const audit = await listAudit(db, 1);
    expect(audit.entries.filter((e) => e.action === 'account.systems-bulk')).toHaveLength(1);
    expect(audit.entries[0]).toMatchObject({ actorId: null, actorName: 'Command line (npm run admin)', targetId: anna.id, detail: { change: 'assign', count: 2, selection: { area: 'Norr' } } });

    // The whole approval (its id is never printed back), then a text.
    const approval = await cli('assign', '--manager', 'anna@example.com', `--approval=${approvalId}`);
    expect(approval.out).toEqual(['Gave Anna Berg <anna@example.com> 1 system (3 matched; 2 already were theirs).']);
    expect(JSON.stringify(await listAudit(db, 1))).not.toContain(approvalId);
    expect(await cli('assign', '--manager', 'anna@example.com', '--match', 'storgatan')).toMatchObject({ out: ['Gave Anna Berg <anna@example.com> 1 system (2 matched; 1 already were theirs).'] });
    expect(await mine()).toBe(4);
    expect((await cli('list')).out).toEqual([expect.stringMatching(/^manager +anna@example\.com +Anna Berg +\(4 systems\)$/)]);

    expect(await cli('unassign', '--manager', 'anna@example.com', '--all', '--dry-run')).toMatchObject({
      out: ["5 systems match; 4 of them are Anna Berg's now. This would take 4 systems back from Anna Berg <anna@example.com>. Nothing was changed (dry run)."],
    });
    expect(await cli('unassign', '--manager', 'anna@example.com', '--area', 'Söder', '--match', 'Sol')).toMatchObject({ out: ['Took 1 system back from Anna Berg <anna@example.com> (1 matched).'] });
    expect(await cli('unassign', '--manager', 'anna@example.com', '--all')).toMatchObject({ out: ['Took 3 systems back from Anna Berg <anna@example.com> (5 matched).'] });
    expect(await mine()).toBe(0);
    expect(await cli('unassign', '--manager', 'anna@example.com', '--all')).toMatchObject({ out: ['Anna Berg <anna@example.com> has none of the 5 systems that match; nothing was changed.'] });
    expect(await cli('assign', '--manager', 'anna@example.com', '--area', 'Väster')).toMatchObject({ code: 0, out: ['No system matches; nothing was changed.'] });
  });

  it('refuses what it cannot do with a sentence, changing nothing', async () => {
    const { db } = ctx().handle;
    await createUser(db, { email: 'root@example.com', name: 'Root', role: 'admin' });
    const before = (await listAudit(db, 1)).total;
    for (const [argv, code, message] of [
      [['assign', '--area', 'Norr'], 2, '--manager is required.'],
      [['assign', '--manager', 'anna@example.com'], 2, 'Name the systems: text in their name, street or city, an area, an approval, or all. Nothing was changed.'],
      [['assign', '--manager', 'anna@example.com', '--all', '--area', 'Norr'], 2, 'All systems or a filter, not both. Nothing was changed.'],
      [['assign', '--manager', 'anna@example.com', '--area'], 2, '--area needs a value.'],
      [['assign', '--manager', 'anna@example.com', '--area', 'x'.repeat(121)], 2, '--area must be at most 120 characters. Nothing was changed.'],
      [['assign', '--manager', 'anna@example.com', '--approval', 'nope'], 2, /^--approval must be an approval id/],
      [['assign', '--manager', 'anna@example.com', '--approval', randomUUID()], 1, 'No connected approval has that id; connect it first on the admin pages. Nothing was changed.'],
      [['assign', '--manager', 'nobody@example.com', '--all'], 1, 'No account has the e-mail nobody@example.com.'],
      [['assign', '--manager', 'root@example.com', '--all'], 1, 'Root <root@example.com> is an admin; systems are given to managers only (admins see every system).'],
      [['unassign', '--manager', 'anna@example.com', '--all', '--email', 'x@example.com'], 2, 'unassign takes no --email.'],
    ] as const) {
      const r = io();
      expect(await runAdminCommand(db, [...argv], r.io), argv.join(' ')).toBe(code);
      if (typeof message === 'string') expect(r.err).toEqual([message]);
      else expect(r.err[0]).toMatch(message);
    }
    expect((await listAudit(db, 1)).total).toBe(before);
    expect(await db.select().from(managerSystems)).toEqual([]);
  });
});

const run = promisify(execFile);
const tsx = ['node_modules/tsx/dist/cli.mjs', '--conditions=react-server', 'scripts/admin.ts'];

it('works as a command on a fresh embedded database, and will not open one a running portal holds', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'admin-cli-'));
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' };
  const created = spawn(process.execPath, [...tsx, 'create', '--email', 'first@example.se', '--name', 'First Admin', '--password-stdin'], { env });
  created.stdin.end('correct-horse-battery\n');
  let out = '';
  created.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const code = await new Promise<number | null>((resolve) => created.on('close', resolve));
  expect(out.trim()).toBe('Created admin First Admin <first@example.se>. They can sign in now.');
  expect(code).toBe(0);

  const handle = await openDatabase({ dataDir: path.join(dataDir, 'pglite') });
  try {
    expect(await verifyPassword('correct-horse-battery', (await findUserByEmail(handle.db, 'first@example.se'))?.passwordHash)).toBe(true);
    // While this process holds the database, the command refuses to open it.
    const refused = await run(process.execPath, [...tsx, 'list'], { env }).catch((e: { code: number; stderr: string }) => e);
    expect('code' in refused && refused.code).toBe(1);
    expect('stderr' in refused && refused.stderr).toMatch(new RegExp(`in use by process ${process.pid} \\(a running portal\\?\\)`));
  } finally {
    await handle.close();
  }
  const listed = await run(process.execPath, [...tsx, 'list'], { env });
  expect(listed.stdout).toMatch(/^admin +first@example\.se +First Admin$/m);
  // Three cold tsx starts and two fresh embedded databases: on a busy 2-core machine over a minute.
}, 180_000);

it('takes over the lock of a process that is gone', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'admin-lock-'));
  writeFileSync(path.join(dataDir, 'pglite.lock'), '999999\n');
  const handle = await openDatabase({ dataDir: path.join(dataDir, 'pglite') });
  expect(readFileSync(path.join(dataDir, 'pglite.lock'), 'utf8').trim()).toBe(String(process.pid));
  await handle.close();
  expect(existsSync(path.join(dataDir, 'pglite.lock'))).toBe(false);
  // A fresh embedded database with every migration: ~25 s on a busy 2-core machine.
}, 120_000);
