-- Booking rules by group of rooms (issue 35): what an installation publishes to its residents
-- ("Tvättstuga 1, 4 and 5 together at most 4 times in 7 days, 2 at a time") and the service does
-- not expose. A system without a row keeps its per-room quota and horizon.
CREATE TABLE IF NOT EXISTS system_booking_rules (
  device_id uuid PRIMARY KEY REFERENCES systems (device_id) ON DELETE CASCADE,
  rules jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
