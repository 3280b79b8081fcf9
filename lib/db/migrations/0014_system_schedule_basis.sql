-- What the system's Week schedule minutes mean: 'utc' (minutes from UTC midnight, the interface's
-- literal reading) or 'local' (wall-clock minutes in the system's time zone, which a real system
-- may mean). The portal cannot tell from the data; an admin sets it per system. Default 'utc'.
ALTER TABLE systems ADD COLUMN IF NOT EXISTS schedule_basis text NOT NULL DEFAULT 'utc'
  CHECK (schedule_basis IN ('utc', 'local'));
