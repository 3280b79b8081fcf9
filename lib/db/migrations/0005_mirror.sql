-- A per-system copy of the upstream's paged collections. Each refresh writes a new generation
-- beside the current one and switches over at the end, so readers always see a complete copy.
CREATE TABLE IF NOT EXISTS mirror_state (
  device_id uuid PRIMARY KEY,
  generation bigint NOT NULL DEFAULT 0,
  refreshed_at timestamptz,
  refresh_started_at timestamptz,
  pages_fetched integer NOT NULL DEFAULT 0,
  last_error text,
  last_error_at timestamptz
);

CREATE TABLE IF NOT EXISTS mirror_reservations (
  device_id uuid NOT NULL,
  generation bigint NOT NULL,
  id uuid NOT NULL,
  resource_id uuid NOT NULL,
  user_id uuid,
  owner_id uuid,
  owner_type text NOT NULL,
  status text NOT NULL,
  start_time timestamptz NOT NULL,
  end_time timestamptz NOT NULL,
  PRIMARY KEY (device_id, generation, id)
);
CREATE INDEX IF NOT EXISTS mirror_reservations_resource_time
  ON mirror_reservations (device_id, generation, resource_id, start_time);
CREATE INDEX IF NOT EXISTS mirror_reservations_time ON mirror_reservations (device_id, generation, start_time);

CREATE TABLE IF NOT EXISTS mirror_resources (
  device_id uuid NOT NULL,
  generation bigint NOT NULL,
  id uuid NOT NULL,
  name text NOT NULL,
  description text NOT NULL,
  time_schedule_id text NOT NULL,
  PRIMARY KEY (device_id, generation, id)
);

CREATE TABLE IF NOT EXISTS mirror_time_schedules (
  device_id uuid NOT NULL,
  generation bigint NOT NULL,
  id uuid NOT NULL,
  schedule_type text NOT NULL,
  schedule jsonb NOT NULL,
  PRIMARY KEY (device_id, generation, id)
);

CREATE TABLE IF NOT EXISTS mirror_user_groups (
  device_id uuid NOT NULL,
  generation bigint NOT NULL,
  id uuid NOT NULL,
  name text NOT NULL,
  apartment_id text,
  reference_id text,
  PRIMARY KEY (device_id, generation, id)
);
