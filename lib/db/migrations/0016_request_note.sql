-- A manager's optional note on a booking made on a resident's behalf ("asked at the door, has no
-- app"): shown with the booked slot and in the request history. Trimmed, at most 500 characters.
ALTER TABLE reservation_requests ADD COLUMN IF NOT EXISTS note text;
