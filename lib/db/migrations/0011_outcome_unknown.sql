-- A booking request whose send has an unknown effect (timeout after it left, a broken connection,
-- a 5xx, an unreadable 2xx) is pending with no correlation id; this says since when. The
-- reconciler settles it from the service's reservations, sooner than a request that was accepted.
ALTER TABLE reservation_requests ADD COLUMN IF NOT EXISTS outcome_unknown_since timestamptz;
