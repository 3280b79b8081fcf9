-- Calendar feeds (issue 18): an iCal address per room or per apartment that a calendar app reads
-- without a session. Only the SHA-256 of the address's token is kept: the token is shown once,
-- when the feed is made or rotated. A revoked feed stays (who made it, when it ended) but no token
-- finds it. The language is the creator's at creation, so event titles need no session.
CREATE TABLE IF NOT EXISTS calendar_feeds (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  device_id uuid NOT NULL REFERENCES systems (device_id) ON DELETE CASCADE,
  scope text NOT NULL CHECK (scope IN ('room', 'apartment')),
  resource_id uuid,
  group_id uuid,
  token_hash text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  locale text NOT NULL CHECK (char_length(locale) BETWEEN 2 AND 16),
  -- A retried create with the same key finds the feed made by the first (see lib/feeds/feeds.ts).
  idempotency_key text,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  rotated_at timestamptz,
  revoked_at timestamptz,
  CONSTRAINT calendar_feeds_target CHECK (
    (scope = 'room' AND resource_id IS NOT NULL AND group_id IS NULL)
    OR (scope = 'apartment' AND group_id IS NOT NULL AND resource_id IS NULL)
  ),
  CONSTRAINT calendar_feeds_idempotency UNIQUE (created_by, idempotency_key)
);
-- A room's or an apartment's active feeds, for their page.
CREATE INDEX IF NOT EXISTS calendar_feeds_resource ON calendar_feeds (device_id, resource_id) WHERE revoked_at IS NULL;
CREATE INDEX IF NOT EXISTS calendar_feeds_group ON calendar_feeds (device_id, group_id) WHERE revoked_at IS NULL;
