// npm run admin -- <command>: accounts from the command line (see lib/admin/admin-cli.ts).
// Opens the portal's own database (DATABASE_URL, or the embedded one under DATA_DIR; the
// embedded one only while no portal runs on it). Run with `tsx --conditions=react-server`.
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { runAdminCommand } from '@/lib/admin/admin-cli';
import { getDb } from '@/lib/db';

async function readFirstLine(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
}

/** Asks on the terminal without echoing what is typed. */
function askHidden(question: string): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!muted) process.stdout.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  return new Promise((resolve) => {
    rl.question(question, (answer) => {
      rl.close();
      process.stdout.write('\n');
      resolve(answer);
    });
    muted = true;
  });
}

async function readPassword(): Promise<string> {
  if (process.argv.includes('--password-stdin')) return readFirstLine();
  if (!process.stdin.isTTY) throw new Error('No terminal to ask for the password on: pipe it in with --password-stdin.');
  const first = await askHidden('New password: ');
  const again = await askHidden('The same password again: ');
  if (first !== again) throw new Error('The two passwords differ. Nothing was changed.');
  return first;
}

let code = 1;
try {
  const handle = await getDb();
  try {
    code = await runAdminCommand(handle.db, process.argv.slice(2), {
      readPassword,
      out: (line) => console.log(line),
      err: (line) => console.error(line),
    });
  } finally {
    await handle.close();
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
}
process.exit(code);
