-- Laundry-room displays (issue 36): a screen by the door that shows one room or a building without
-- a session. Like calendar feeds, only the SHA-256 of the address's token is kept: the token is
-- shown when the display is made or rotated. A revoked display stays (who made it, when it ended)
-- but no token finds it. resource_ids NULL: every room of the system, as it has them now.
CREATE TABLE IF NOT EXISTS displays (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  device_id uuid NOT NULL REFERENCES systems (device_id) ON DELETE CASCADE,
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 80),
  resource_ids uuid[],
  locale text NOT NULL CHECK (locale IN ('sv', 'en')),
  show_apartments boolean NOT NULL DEFAULT false,
  token_hash text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  -- A retried create with the same key makes no second display (decision 013).
  idempotency_key text,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  rotated_at timestamptz,
  revoked_at timestamptz,
  CONSTRAINT displays_idempotency UNIQUE (created_by, idempotency_key)
);
-- A system's active displays, for its page.
CREATE INDEX IF NOT EXISTS displays_device ON displays (device_id) WHERE revoked_at IS NULL;
