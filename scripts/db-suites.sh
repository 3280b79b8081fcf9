#!/usr/bin/env bash
# The suites that need a PostgreSQL server: scale-out across two instances and reliability, side by
# side (each has its own ports, sandboxes and databases; issue 46). Part of `npm test` whenever
# TEST_DATABASE_URL is set (always in CI); skipped, and said so, otherwise. DB_SUITES_SERIAL=1 runs
# them one after the other.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${TEST_DATABASE_URL:-}" ]; then
  echo "== test:scale and test:reliability skipped: TEST_DATABASE_URL is not set"
  exit 0
fi
# One build for both (each would otherwise start its own when none is there).
npx tsx -e "import('./scripts/harness/processes.ts').then((m) => m.ensureBuild())"
if [ "${DB_SUITES_SERIAL:-}" = "1" ]; then
  npm run test:scale
  npm run test:reliability
  exit 0
fi
npm run test:scale &
scale=$!
# Every part: bad input, faults, the 60-second load (200 SSE clients, 50 webhooks/s), database down, …
npm run test:reliability &
reliability=$!
status=0
wait "$scale" || status=1
wait "$reliability" || status=1
exit "$status"
