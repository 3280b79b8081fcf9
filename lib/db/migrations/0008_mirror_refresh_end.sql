-- When the last successful refresh finished: the next one is due a freshness window after that,
-- so a refresh that takes longer than the window does not start the next one at once (on a large
-- system that meant paging the upstream without pause).
ALTER TABLE mirror_state ADD COLUMN IF NOT EXISTS refresh_ended_at timestamptz;
