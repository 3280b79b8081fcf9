-- How far ahead a system's rooms can be booked. Upstream this is a rule per bookable object in the
-- service's admin tool, which the API does not expose; the portal checks it before sending, so a
-- slot too far ahead is refused with a sentence, not accepted and failed later. Default 28 days.
ALTER TABLE systems ADD COLUMN IF NOT EXISTS booking_horizon_days integer NOT NULL DEFAULT 28
  CHECK (booking_horizon_days BETWEEN 1 AND 365);
