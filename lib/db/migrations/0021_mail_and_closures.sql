-- Issue 19: e-mail to residents through an outbox, and room closures.

-- Per system: whether residents get e-mail about bookings made or cancelled on their behalf, and
-- the language those e-mails are written in (checked by the application against i18n/config.ts).
ALTER TABLE systems ADD COLUMN IF NOT EXISTS resident_mail boolean NOT NULL DEFAULT true;
ALTER TABLE systems ADD COLUMN IF NOT EXISTS mail_locale text NOT NULL DEFAULT 'sv';
ALTER TABLE systems DROP CONSTRAINT IF EXISTS systems_mail_locale_length;
ALTER TABLE systems ADD CONSTRAINT systems_mail_locale_length CHECK (char_length(mail_locale) BETWEEN 2 AND 16);

-- A room closure (written by lib/closures only): rooms closed for a period with a reason. The
-- portal refuses its own bookings in it and cancels, on the residents' behalf, the bookings found
-- in it when it was confirmed (`targets`); each cancellation is an ordinary booking request
-- (reservation_requests.closure_id) under a key derived from the closure and the reservation, so
-- a closure resumed after a restart never cancels twice.
CREATE TABLE IF NOT EXISTS room_closures (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  device_id uuid NOT NULL REFERENCES systems (device_id) ON DELETE CASCADE,
  resource_ids uuid[] NOT NULL CHECK (cardinality(resource_ids) BETWEEN 1 AND 500),
  starts_at timestamptz NOT NULL,
  ends_at timestamptz NOT NULL,
  reason text NOT NULL CHECK (char_length(reason) BETWEEN 1 AND 200),
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_by_name text,
  idempotency_key text,
  -- The bookings to cancel, found in the mirror (refreshed first) when the closure was confirmed.
  targets jsonb NOT NULL DEFAULT '[]'::jsonb,
  status text NOT NULL DEFAULT 'cancelling' CHECK (status IN ('cancelling', 'done')),
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  lifted_at timestamptz,
  lifted_by uuid REFERENCES users (id) ON DELETE SET NULL,
  CONSTRAINT room_closures_period CHECK (ends_at > starts_at),
  CONSTRAINT room_closures_idempotency UNIQUE (created_by, idempotency_key)
);
-- A system's closures still in force or to come (the grid, the overview, the booking rule).
CREATE INDEX IF NOT EXISTS room_closures_device_end ON room_closures (device_id, ends_at) WHERE lifted_at IS NULL;
-- Closures whose cancellations are not all sent (resumed by the worker after a restart).
CREATE INDEX IF NOT EXISTS room_closures_cancelling ON room_closures (created_at) WHERE status = 'cancelling';

ALTER TABLE reservation_requests ADD COLUMN IF NOT EXISTS closure_id uuid REFERENCES room_closures (id) ON DELETE SET NULL;
CREATE INDEX IF NOT EXISTS reservation_requests_closure ON reservation_requests (closure_id) WHERE closure_id IS NOT NULL;

-- The e-mail outbox (written by lib/mail only). A row is written in the same transaction as the
-- confirmed outcome it tells of, at most one per (reservation, kind); a worker sends it over SMTP
-- (or, without SMTP_URL, keeps the rendered message here: 'captured'), claiming rows with a lease
-- under FOR UPDATE SKIP LOCKED so that several instances never send one twice.
CREATE TABLE IF NOT EXISTS mail_outbox (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  device_id uuid NOT NULL REFERENCES systems (device_id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('booked', 'cancelled', 'closed')),
  reservation_id uuid NOT NULL,
  request_id uuid REFERENCES reservation_requests (id) ON DELETE SET NULL,
  closure_id uuid REFERENCES room_closures (id) ON DELETE SET NULL,
  recipient text,
  recipient_name text,
  locale text NOT NULL CHECK (char_length(locale) BETWEEN 2 AND 16),
  -- What the message tells (room, times, time zone, who arranged it, the closure's reason): it is
  -- rendered from these when sent, and again when a manager views it.
  facts jsonb NOT NULL,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'captured', 'skipped', 'failed')),
  skip_reason text CHECK (skip_reason IS NULL OR skip_reason IN ('noAddress', 'disabled')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  lease_until timestamptz,
  last_error text,
  subject text,
  message_id text,
  -- The message as delivered or captured (RFC 5322), for the E-mails page.
  raw text,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz,
  CONSTRAINT mail_outbox_once UNIQUE (reservation_id, kind)
);
CREATE INDEX IF NOT EXISTS mail_outbox_due ON mail_outbox (next_attempt_at) WHERE status = 'queued';
CREATE INDEX IF NOT EXISTS mail_outbox_device_created ON mail_outbox (device_id, created_at DESC, id DESC);
