-- Issue 49: a portfolio of a thousand systems. The service gives systems no names or addresses,
-- so an admin sets them (one by one or by import): the street and city it stands on, and the
-- area, the organisational unit a housing company groups its properties by. mirror_state.viewed_at
-- is when someone last opened the system, so the background worker loads the most recently used first.
ALTER TABLE systems ADD COLUMN IF NOT EXISTS street text;
ALTER TABLE systems ADD COLUMN IF NOT EXISTS city text;
ALTER TABLE systems ADD COLUMN IF NOT EXISTS area text;
CREATE INDEX IF NOT EXISTS systems_area_idx ON systems (area);
ALTER TABLE mirror_state ADD COLUMN IF NOT EXISTS viewed_at timestamptz;
