-- A deactivated account cannot sign in, and its sessions end (the session version is bumped in the
-- same transaction). Null: active. Deactivation keeps the account and its history; deletion removes it.
ALTER TABLE users ADD COLUMN IF NOT EXISTS deactivated_at timestamptz;

-- What admins did: who, what, to what, when. Written in the transaction of the action itself, so an
-- action that rolled back leaves no entry and no action goes unrecorded. Actor and target are kept
-- by id and by name (no foreign keys): entries outlive the accounts and systems they name.
CREATE TABLE IF NOT EXISTS admin_audit (
  id bigserial PRIMARY KEY,
  actor_id uuid,
  actor_name text NOT NULL,
  action text NOT NULL,
  target_type text NOT NULL,
  target_id text,
  target_name text,
  detail jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS admin_audit_created ON admin_audit (created_at DESC, id DESC);
