-- Foundation: a key/value table for portal-wide settings generated at first start
-- (for example development secrets in sandbox mode, the registered webhook subscription).
CREATE TABLE IF NOT EXISTS app_settings (
  key text PRIMARY KEY,
  value jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
