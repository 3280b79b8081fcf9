import { describe, expect, it } from 'vitest';
import { runShutdown, type ShutdownSteps } from './shutdown';

function recording(serverDone: Promise<number | undefined>, deadlineMs?: number) {
  const steps: string[] = [];
  let exited: (code: number) => void = () => undefined;
  const exit = new Promise<number>((resolve) => (exited = resolve));
  const options: ShutdownSteps = {
    endStreams: () => {
      steps.push('streams');
      return 2;
    },
    stopWorkers: async () => {
      await new Promise((r) => setTimeout(r, 20));
      steps.push('workers');
    },
    serverDone: serverDone.then((code) => {
      steps.push('server');
      return code;
    }),
    closeDatabase: async () => {
      await new Promise((r) => setTimeout(r, 20));
      steps.push('database');
    },
    exit: (code) => {
      steps.push(`exit ${code}`);
      exited(code);
    },
    deadlineMs,
  };
  return { steps, options, exit };
}

describe('shutdown', () => {
  it('tells streams to reconnect and stops workers at once, closes the database only after the server finished, then exits with its code', async () => {
    let serverFinished: (code: number | undefined) => void = () => undefined;
    const { steps, options, exit } = recording(new Promise((r) => (serverFinished = r)));
    const run = runShutdown('SIGTERM', options);
    await new Promise((r) => setTimeout(r, 100));
    expect(steps).toEqual(['streams', 'workers']);
    serverFinished(143);
    await run;
    expect(await exit).toBe(143);
    expect(steps).toEqual(['streams', 'workers', 'server', 'database', 'exit 143']);
  });

  it('closes the database and exits by the deadline when the server never finishes', async () => {
    const { steps, options, exit } = recording(new Promise(() => undefined), 1_500);
    const started = Date.now();
    await runShutdown('SIGINT', options);
    expect(await exit).toBe(130);
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(steps).toEqual(['streams', 'workers', 'database', 'exit 130']);
  });
});

describe('shutdown of a real process', () => {
  it('on SIGTERM, an open stream gets event: end {"reason":"restart"}, Next-style server.close() completes and the process exits 143 within 10 s', async () => {
    const { spawn } = await import('node:child_process');
    const child = spawn('node_modules/.bin/tsx', ['--conditions=react-server', 'tests/shutdown-child.ts'], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, LOG_LEVEL: 'silent' } });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const port = await new Promise<number>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /listening (\d+)/.exec(out);
          if (match) resolve(Number(match[1]));
        });
        child.on('exit', () => reject(new Error(`child exited early: ${out}`)));
      });
      const response = await fetch(`http://127.0.0.1:${port}/api/events`);
      const reader = response.body?.getReader();
      if (!reader) throw new Error('no body');
      const first = await reader.read();
      expect(new TextDecoder().decode(first.value)).toContain('retry:');
      const signalled = Date.now();
      child.kill('SIGTERM');
      let text = '';
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        text += new TextDecoder().decode(chunk.value);
      }
      expect(text).toContain('event: end\ndata: {"reason":"restart"}\n\n');
      expect(await exited).toBe(143);
      expect(Date.now() - signalled).toBeLessThan(10_000);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 60_000);
});
