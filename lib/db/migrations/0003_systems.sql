-- Connected systems: one connection per approval id (its API key, encrypted), the systems it
-- covers, and which manager may use which system.
CREATE TABLE IF NOT EXISTS connections (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- SHA-256 of the approval id: recognises a re-connected approval without storing the grant.
  approval_fingerprint text NOT NULL UNIQUE,
  -- AES-256-GCM ciphertext of the API key (lib/crypto.ts); never sent to a browser.
  api_key_ciphertext text NOT NULL,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS systems (
  device_id uuid PRIMARY KEY,
  connection_id uuid NOT NULL REFERENCES connections (id) ON DELETE CASCADE,
  name text NOT NULL,
  time_zone text NOT NULL DEFAULT 'Europe/Stockholm',
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'error', 'disconnected')),
  status_detail text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS systems_connection_idx ON systems (connection_id);

CREATE TABLE IF NOT EXISTS manager_systems (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  device_id uuid NOT NULL REFERENCES systems (device_id) ON DELETE CASCADE,
  PRIMARY KEY (user_id, device_id)
);
CREATE INDEX IF NOT EXISTS manager_systems_device_idx ON manager_systems (device_id);
