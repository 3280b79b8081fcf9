-- Issue 20: a room's week of requests (open ones and the bookings made through the portal) in one
-- indexed range read, for the warm grid (lib/reservations/lifecycle.ts weekRequestsRead). Before,
-- the open ones had a partial index and the booked ones were looked up by reservation id, which
-- needed the week's reservations first: two statements where one does.
CREATE INDEX IF NOT EXISTS reservation_requests_resource_time ON reservation_requests (device_id, resource_id, start_time);
