-- Issue 34: a system's own upstream request budget per hour, set by an admin when the service's
-- owner allows more (or less) than MIRROR_REQUEST_BUDGET_PER_HOUR; null: the setting's default.
ALTER TABLE systems ADD COLUMN IF NOT EXISTS request_budget_per_hour integer;
