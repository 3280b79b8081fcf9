-- What the tolerant reader left out, why a refresh failed, and when the next attempt may start.
-- skipped_items: of the last successful refresh, { "total": n, "counts": { collection: n },
--   "samples": [{ "collection", "id", "reason" }] } (at most 20 samples); null when none.
ALTER TABLE mirror_state ADD COLUMN IF NOT EXISTS skipped_items jsonb;
-- 'unreachable' | 'unreadable' | 'refused' | 'internal': what is true about the service's state,
-- so the page does not say "could not be reached" of a service that answered.
ALTER TABLE mirror_state ADD COLUMN IF NOT EXISTS last_error_kind text;
-- Failed refreshes in a row, and the earliest time the next may start (capped exponential
-- backoff). Shared by every instance, so a failing upstream is not paged once per page view.
ALTER TABLE mirror_state ADD COLUMN IF NOT EXISTS consecutive_failures integer NOT NULL DEFAULT 0;
ALTER TABLE mirror_state ADD COLUMN IF NOT EXISTS next_refresh_at timestamptz;
