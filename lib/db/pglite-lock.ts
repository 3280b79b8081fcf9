import 'server-only';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';

/**
 * Two processes on one PGlite data directory corrupt it, and nothing in PGlite stops the second.
 * So the first writes its pid next to the directory (`<dir>.lock`) and a second process — the
 * admin CLI while the portal runs, a second `next start` — is refused with a sentence saying who
 * holds it. A lock whose process is gone is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  const file = `${dataDir.replace(/\/+$/, '')}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      return () => {
        if (readPid(file) === process.pid) rmSync(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readPid(file);
      if (holder === process.pid) return () => rmSync(file, { force: true });
      if (holder !== null && isAlive(holder)) {
        throw new Error(
          `The embedded database ${dataDir} is in use by process ${holder} (a running portal?). Stop it first, ` +
            `or use PostgreSQL (DATABASE_URL) to run several processes. If no such process is running, delete ${file}.`,
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not lock the embedded database ${dataDir} (${file} keeps reappearing).`);
}

function readPid(file: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
