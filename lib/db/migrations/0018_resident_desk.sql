-- The resident desk (issue 16). The system's users, mirrored from users/fetch (beyond the
-- interface document, so a service may lack it): searched as the manager types, and the residents
-- of an apartment page. Kept per generation like the other mirrored collections.
CREATE TABLE IF NOT EXISTS mirror_users (
  device_id uuid NOT NULL,
  generation bigint NOT NULL,
  id uuid NOT NULL,
  name text,
  email text,
  user_group_id uuid,
  PRIMARY KEY (device_id, generation, id)
);
CREATE INDEX IF NOT EXISTS mirror_users_group ON mirror_users (device_id, generation, user_group_id);

-- When the user list in the current generation was read (null: the portal holds none, e.g. the
-- service has no users/fetch); 'loaded', 'kept' (this refresh could not read it: the previous
-- list was carried over) or 'unavailable' (the service has no such endpoint).
ALTER TABLE mirror_state ADD COLUMN IF NOT EXISTS users_refreshed_at timestamptz;
ALTER TABLE mirror_state ADD COLUMN IF NOT EXISTS users_status text;

-- An apartment's bookings: those owned by its group (the users' own are found on user_id).
CREATE INDEX IF NOT EXISTS mirror_reservations_owner ON mirror_reservations (device_id, generation, owner_id);

-- Future bookings an apartment may hold per room. Upstream a rule per bookable object that the
-- API does not expose; the portal counts against it before sending (default 2, the usual value).
ALTER TABLE systems ADD COLUMN IF NOT EXISTS booking_quota integer NOT NULL DEFAULT 2
  CHECK (booking_quota BETWEEN 1 AND 100);

-- What kind of room a resource is, when an admin corrected the guess from its name.
CREATE TABLE IF NOT EXISTS resource_kinds (
  device_id uuid NOT NULL REFERENCES systems (device_id) ON DELETE CASCADE,
  resource_id uuid NOT NULL,
  kind text NOT NULL CHECK (kind IN ('laundry', 'drying', 'other')),
  PRIMARY KEY (device_id, resource_id)
);

-- An apartment's request history.
CREATE INDEX IF NOT EXISTS reservation_requests_resident_group ON reservation_requests (device_id, resident_group_id, created_at DESC)
  WHERE resident_group_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS reservation_requests_resident_user ON reservation_requests (device_id, resident_user_id, created_at DESC)
  WHERE resident_user_id IS NOT NULL;
