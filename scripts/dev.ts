// `npm run dev`: `next dev` with the same arguments, plus a warm-up. Once the server listens, the
// main pages (sign-in, home, a system, a room's week grid, an apartment, residents) are requested
// in the background so that they are compiled before a person opens them, and the terminal says
// so: "Compiling the first pages…" then "Ready: …" (issue 30). PORTAL_DEV_WARMUP=0 turns it off.
//   npm run dev -- -p 3670      (any `next dev` argument passes through)
import { spawn } from 'node:child_process';
import path from 'node:path';
import { waitForListening, warmUp } from './warm-up';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);

/** The port and host `next dev` will listen on, from its arguments as Next reads them. */
function listenAddress(argv: string[]): { port: number; host: string } {
  let port = Number(process.env.PORT ?? 3000);
  let host = 'localhost';
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i]!;
    const value = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[i + 1];
    if (/^(-p|--port)(=|$)/.test(a) && value) port = Number(value);
    if (/^(-H|--hostname)(=|$)/.test(a) && value && value !== '0.0.0.0' && value !== '::') host = value.includes(':') ? `[${value}]` : value;
  }
  return { port, host };
}

const child = spawn(process.execPath, [path.join(root, 'node_modules/next/dist/bin/next'), 'dev', ...args], { cwd: root, stdio: 'inherit', env: process.env });
let exited = false;
child.on('exit', (code, signal) => {
  exited = true;
  process.exit(code ?? (signal ? 1 : 0));
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (!exited) child.kill(signal);
  });
}

async function warm(): Promise<void> {
  const { port, host } = listenAddress(args);
  const base = `http://${host}:${port}`;
  if (!(await waitForListening(base, 600_000, () => !exited)) || exited) return;
  console.log(`\n  Compiling the first pages… (about a minute on a first start; ${base} answers meanwhile, each page once it is compiled)\n`);
  const result = await warmUp(base);
  if (exited) return;
  const slowest = [...result.pages].sort((a, b) => b.seconds - a.seconds)[0];
  const note = result.signedIn ? '' : ' (public pages only: the demo manager could not sign in)';
  console.log(
    `\n  Ready: ${base} — the main pages are compiled (${result.seconds.toFixed(0)} s${slowest ? `, slowest ${slowest.path} ${slowest.seconds.toFixed(0)} s` : ''})${note}\n`,
  );
}

if (process.env.PORTAL_DEV_WARMUP !== '0' && !args.includes('--help') && !args.includes('-h')) {
  void warm().catch((error: unknown) => console.warn(`  The warm-up stopped: ${error instanceof Error ? error.message : String(error)}`));
}
