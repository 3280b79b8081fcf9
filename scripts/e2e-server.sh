#!/usr/bin/env bash
# Builds the portal and serves the production build for Playwright, on a fresh embedded database.
set -euo pipefail
port="${1:-3100}"
cd "$(dirname "$0")/.."
data_dir=".data/e2e-${port}"
rm -rf "$data_dir"
# Known secrets, set for the build too: e2e/bundle-secrets.spec.ts proves none reaches .next/static.
export AUTH_SECRET="${E2E_AUTH_SECRET:-e2e-auth-secret-0123456789abcdef0123456789}"
export ENCRYPTION_KEY="${E2E_ENCRYPTION_KEY:-ZTJlLWVuY3J5cHRpb24ta2V5LTAxMjM0NTY3ODlhYmM=}"
# e2e/metrics.spec.ts scrapes /api/metrics (utils.ts: E2E_METRICS_TOKEN).
export METRICS_TOKEN="${E2E_METRICS_TOKEN:-e2e-metrics-token-0123456789abcdef}"
if [ "${E2E_SKIP_BUILD:-}" != "1" ]; then
  npx next build
fi
export DATA_DIR="$data_dir"
export PORTAL_URL="http://localhost:${port}"
# The built-in sandbox under next start (production) only when asked for.
export DEMO_MODE=1
# Short enough that e2e/booking.spec.ts can watch a booking whose answer timed out be settled.
export SERVICE_TIMEOUT_MS="${SERVICE_TIMEOUT_MS:-4000}"
export RECONCILE_UNKNOWN_AFTER_S="${RECONCILE_UNKNOWN_AFTER_S:-5}"
# The server's output is kept as well as shown: scripts/e2e-log-scan.ts (after the e2e step of
# `npm test`) fails when a demo resident's name or e-mail address appears in it.
log_dir="${data_dir}/logs"
mkdir -p "$log_dir"
exec npx next start --port "$port" > >(tee "${log_dir}/server.out.log") 2> >(tee "${log_dir}/server.err.log" >&2)
