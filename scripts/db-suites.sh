#!/usr/bin/env bash
# The suites that need a PostgreSQL server: scale-out across two instances and reliability.
# Part of `npm test` whenever TEST_DATABASE_URL is set (always in CI); skipped, and said so, otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${TEST_DATABASE_URL:-}" ]; then
  echo "== test:scale and test:reliability skipped: TEST_DATABASE_URL is not set"
  exit 0
fi
npm run test:scale
# Every part: bad input, faults, the 60-second load (200 SSE clients, 50 webhooks/s), database down.
npm run test:reliability
