-- Portal accounts (admins and managers) and the store of sign-in throttling counters.
CREATE TABLE IF NOT EXISTS users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- Stored trimmed and lower-cased so that look-ups are exact.
  email text NOT NULL UNIQUE,
  name text NOT NULL,
  role text NOT NULL CHECK (role IN ('admin', 'manager')),
  -- NULL for accounts that sign in only through Entra ID.
  password_hash text,
  -- Carried in every session token; bumping it revokes all sessions issued before.
  session_version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- rate-limiter-flexible's RateLimiterDrizzle store: one row per throttled key.
CREATE TABLE IF NOT EXISTS auth_rate_limits (
  key text PRIMARY KEY,
  points integer NOT NULL DEFAULT 0,
  expire timestamptz
);
CREATE INDEX IF NOT EXISTS auth_rate_limits_expire_idx ON auth_rate_limits (expire);
