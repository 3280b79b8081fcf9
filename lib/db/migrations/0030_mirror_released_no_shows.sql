-- Released no-shows (issue 35): an unused booking that nobody activated within its room group's
-- window is deleted by the service, so the next re-read no longer has it; reports must still count
-- it as a no-show. The mirror remembers each such booking here when a re-read finds it gone.
CREATE TABLE IF NOT EXISTS mirror_released_no_shows (
  device_id uuid NOT NULL,
  id uuid NOT NULL,
  resource_id uuid NOT NULL,
  user_id uuid,
  owner_id uuid,
  owner_type text NOT NULL,
  start_time timestamptz NOT NULL,
  end_time timestamptz NOT NULL,
  released_at timestamptz NOT NULL,
  seen_gone_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (device_id, id)
);
CREATE INDEX IF NOT EXISTS mirror_released_no_shows_time ON mirror_released_no_shows (device_id, start_time);
