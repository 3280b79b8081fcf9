-- Owner labels look up the group a user booked for; without this the lookup scanned every
-- reservation of the system (53 ms of a warm grid read on the 50,000-reservation preset).
CREATE INDEX IF NOT EXISTS mirror_reservations_user ON mirror_reservations (device_id, generation, user_id);
