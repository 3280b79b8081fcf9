// Runs once when a portal server process starts (never during `next build`).
export async function register() {
  // eslint-disable-next-line no-restricted-properties -- set by Next itself, read literally so the edge bundle drops this branch
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    // First, so that every request carries its socket's address (lib/http/client-address.ts).
    const { installPeerAddressHeader } = await import('./lib/http/peer-address');
    installPeerAddressHeader();
    // Header and request timeouts of next start's server (lib/http/slow-clients.ts).
    const { installSlowClientTimeouts } = await import('./lib/http/slow-clients');
    installSlowClientTimeouts();
    const { startPortal } = await import('./lib/startup');
    await startPortal();
  }
}
