// Runs once when a portal server process starts (never during `next build`).
export async function register() {
  // eslint-disable-next-line no-restricted-properties -- set by Next itself, read literally so the edge bundle drops this branch
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { startPortal } = await import('./lib/startup');
    await startPortal();
  }
}
