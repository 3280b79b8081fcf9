-- Booking and cancelling requests made through the portal, and their outcomes.
CREATE TABLE IF NOT EXISTS reservation_requests (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind text NOT NULL CHECK (kind IN ('create', 'cancel')),
  device_id uuid NOT NULL,
  resource_id uuid,
  resident_user_id uuid,
  reservation_id uuid,
  start_time timestamptz,
  end_time timestamptz,
  -- the portal user who asked, and the key that makes a retried request answer the first answer
  requested_by text NOT NULL,
  idempotency_key text,
  -- 'sending' until the upstream accepted it with a correlation id
  status text NOT NULL DEFAULT 'sending' CHECK (status IN ('sending', 'pending', 'succeeded', 'failed')),
  correlation_id uuid UNIQUE,
  error_code text,
  error_description text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  resolved_at timestamptz,
  UNIQUE (requested_by, idempotency_key)
);
CREATE INDEX IF NOT EXISTS reservation_requests_device_created ON reservation_requests (device_id, created_at DESC);
CREATE INDEX IF NOT EXISTS reservation_requests_pending ON reservation_requests (status, updated_at) WHERE status IN ('sending', 'pending');

-- Every verified webhook delivery, once per webhook-id; kept even when no request matches yet.
CREATE TABLE IF NOT EXISTS webhook_events (
  webhook_id text PRIMARY KEY,
  event_type text NOT NULL,
  correlation_id uuid,
  succeeded boolean,
  error_code text,
  error_description text,
  payload jsonb NOT NULL,
  event_time timestamptz,
  received_at timestamptz NOT NULL DEFAULT now(),
  applied_at timestamptz
);
CREATE INDEX IF NOT EXISTS webhook_events_correlation ON webhook_events (correlation_id);

-- The ordered log streamed to browsers over SSE; its id is the SSE event id.
CREATE TABLE IF NOT EXISTS portal_events (
  id bigserial PRIMARY KEY,
  device_id uuid NOT NULL,
  type text NOT NULL,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS portal_events_device_id ON portal_events (device_id, id);
