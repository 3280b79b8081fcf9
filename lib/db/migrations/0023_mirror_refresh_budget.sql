-- Issue 20: the refresh policy's request budget per system (lib/mirror/policy.ts). A token bucket
-- shared by every instance: budget_tokens as of budget_at (null: a full bucket), refilled
-- continuously at the configured rate when read, charged with the upstream requests each refresh
-- made (reserved at the claim, settled when it ends, failed ones too).
ALTER TABLE mirror_state ADD COLUMN IF NOT EXISTS budget_tokens double precision;
ALTER TABLE mirror_state ADD COLUMN IF NOT EXISTS budget_at timestamptz;
-- Upstream requests the last refresh made (retries and token requests included): the next one
-- may start only when the bucket holds that many (or is full, for a refresh larger than the bucket).
ALTER TABLE mirror_state ADD COLUMN IF NOT EXISTS last_requests integer NOT NULL DEFAULT 0;
