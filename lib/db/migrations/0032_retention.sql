-- Issue 37, decision 034: retention. Rows whose personal data is past its class's age are
-- anonymised, not deleted; `anonymised_at` marks each one done, so a run (in batches, each its own
-- statement) is idempotent and a stopped run resumes where it stopped. An e-mail's body expires
-- before its metadata, so mail_outbox marks the two steps apart.
ALTER TABLE reservation_requests ADD COLUMN IF NOT EXISTS anonymised_at timestamptz;
ALTER TABLE portal_events ADD COLUMN IF NOT EXISTS anonymised_at timestamptz;
ALTER TABLE webhook_events ADD COLUMN IF NOT EXISTS anonymised_at timestamptz;
ALTER TABLE room_closures ADD COLUMN IF NOT EXISTS anonymised_at timestamptz;
ALTER TABLE mail_outbox ADD COLUMN IF NOT EXISTS body_dropped_at timestamptz;
ALTER TABLE mail_outbox ADD COLUMN IF NOT EXISTS anonymised_at timestamptz;
ALTER TABLE admin_audit ADD COLUMN IF NOT EXISTS anonymised_at timestamptz;
ALTER TABLE mirror_released_no_shows ADD COLUMN IF NOT EXISTS anonymised_at timestamptz;

-- The rows retention has yet to anonymise, oldest first: a run finds them without walking the ones
-- already done (which leave these indexes), however long the history grows.
CREATE INDEX IF NOT EXISTS reservation_requests_retention ON reservation_requests (created_at) WHERE anonymised_at IS NULL;
CREATE INDEX IF NOT EXISTS portal_events_retention ON portal_events (created_at) WHERE anonymised_at IS NULL;
CREATE INDEX IF NOT EXISTS webhook_events_retention ON webhook_events (received_at) WHERE anonymised_at IS NULL;
CREATE INDEX IF NOT EXISTS mail_outbox_retention_body ON mail_outbox (created_at) WHERE body_dropped_at IS NULL;
CREATE INDEX IF NOT EXISTS mail_outbox_retention ON mail_outbox (created_at) WHERE anonymised_at IS NULL;
CREATE INDEX IF NOT EXISTS admin_audit_retention ON admin_audit (created_at) WHERE anonymised_at IS NULL;
CREATE INDEX IF NOT EXISTS mirror_released_no_shows_retention ON mirror_released_no_shows (start_time) WHERE anonymised_at IS NULL;

-- How long each retention class is kept, as an admin set it (a class without a row follows the
-- environment, else the default): months, or days for e-mail bodies.
CREATE TABLE IF NOT EXISTS retention_settings (
  retention_class text PRIMARY KEY,
  amount integer NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- A background job that must run on one instance at a time holds its row's lease: claimed with
-- UPDATE ... WHERE lease_until < now(), renewed between batches, released when done (or left to
-- expire by a crashed instance). The last run's outcome (counts per table) is kept for the admin page.
CREATE TABLE IF NOT EXISTS job_leases (
  name text PRIMARY KEY,
  holder text,
  lease_until timestamptz,
  last_started_at timestamptz,
  last_finished_at timestamptz,
  last_result jsonb
);
