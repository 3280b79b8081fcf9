-- A manager's optional note on a booking made on a resident's behalf ("asked at the door, has no
-- app"): shown with the booked slot and in the request history. Trimmed, at most 500 characters.
ALTER TABLE reservation_requests ADD COLUMN IF NOT EXISTS note text;

-- The slot dialog asks which of a week's reservations were booked through the portal, and by whom.
CREATE INDEX IF NOT EXISTS reservation_requests_booked_reservation ON reservation_requests (device_id, reservation_id)
  WHERE kind = 'create' AND status = 'succeeded';
