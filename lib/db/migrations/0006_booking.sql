-- Booking context kept with each request: who it is for (to name them in outcomes and to own the
-- mirrored reservation), what it is for, and the first answer when that answer was an error (so a
-- repeated Idempotency-Key answers the same).
ALTER TABLE reservation_requests ADD COLUMN IF NOT EXISTS resident_name text;
ALTER TABLE reservation_requests ADD COLUMN IF NOT EXISTS resident_apartment text;
ALTER TABLE reservation_requests ADD COLUMN IF NOT EXISTS resident_group_id uuid;
ALTER TABLE reservation_requests ADD COLUMN IF NOT EXISTS resource_name text;
ALTER TABLE reservation_requests ADD COLUMN IF NOT EXISTS requested_by_name text;
ALTER TABLE reservation_requests ADD COLUMN IF NOT EXISTS first_answer jsonb;
CREATE INDEX IF NOT EXISTS reservation_requests_open_resource
  ON reservation_requests (device_id, resource_id, start_time) WHERE status IN ('sending', 'pending');
