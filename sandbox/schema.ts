import type { SqlRunner } from '@/shared/sql-runner';

// Serialises schema creation across processes sharing one PostgreSQL.
const SCHEMA_LOCK_KEY = 7_201_312;
export const SCHEMA_VERSION = '1';

/** The sandbox's own tables, all in schema `sandbox`. Idempotent: safe at every start. */
const DDL = `
CREATE SCHEMA IF NOT EXISTS sandbox;
CREATE TABLE IF NOT EXISTS sandbox.meta (key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE IF NOT EXISTS sandbox.systems (
  id uuid PRIMARY KEY, name text NOT NULL, seq bigint NOT NULL);
CREATE TABLE IF NOT EXISTS sandbox.approvals (
  id text PRIMARY KEY, device_ids uuid[] NOT NULL, seq bigint NOT NULL);
CREATE TABLE IF NOT EXISTS sandbox.api_keys (
  key_hash text PRIMARY KEY, approval_id text NOT NULL, created_at timestamptz NOT NULL);
CREATE TABLE IF NOT EXISTS sandbox.time_schedules (
  id uuid PRIMARY KEY, device_id uuid NOT NULL, schedule jsonb NOT NULL, seq bigint NOT NULL);
CREATE INDEX IF NOT EXISTS time_schedules_device ON sandbox.time_schedules (device_id, seq);
CREATE TABLE IF NOT EXISTS sandbox.resources (
  id uuid PRIMARY KEY, device_id uuid NOT NULL, name text NOT NULL, description text NOT NULL,
  time_schedule_id uuid NOT NULL, seq bigint NOT NULL);
CREATE INDEX IF NOT EXISTS resources_device ON sandbox.resources (device_id, seq);
CREATE TABLE IF NOT EXISTS sandbox.user_groups (
  id uuid PRIMARY KEY, device_id uuid NOT NULL, name text NOT NULL, apartment_id text NOT NULL,
  reference_id text NOT NULL, seq bigint NOT NULL);
CREATE INDEX IF NOT EXISTS user_groups_device ON sandbox.user_groups (device_id, seq);
CREATE INDEX IF NOT EXISTS user_groups_apartment ON sandbox.user_groups (apartment_id);
CREATE INDEX IF NOT EXISTS user_groups_reference ON sandbox.user_groups (reference_id);
CREATE TABLE IF NOT EXISTS sandbox.users (
  id uuid PRIMARY KEY, device_id uuid NOT NULL, name text NOT NULL, email text NOT NULL,
  user_group_id uuid, excluded_resource_ids uuid[] NOT NULL DEFAULT '{}', seq bigint NOT NULL);
CREATE INDEX IF NOT EXISTS users_device ON sandbox.users (device_id, seq);
CREATE INDEX IF NOT EXISTS users_email ON sandbox.users (lower(email));
CREATE INDEX IF NOT EXISTS users_group ON sandbox.users (user_group_id);
CREATE SEQUENCE IF NOT EXISTS sandbox.reservation_seq;
CREATE TABLE IF NOT EXISTS sandbox.reservations (
  id uuid PRIMARY KEY, device_id uuid NOT NULL, resource_id uuid NOT NULL, user_id uuid,
  owner_id uuid, owner_type text NOT NULL, status text NOT NULL,
  start_time timestamptz NOT NULL, end_time timestamptz NOT NULL,
  seq bigint NOT NULL DEFAULT nextval('sandbox.reservation_seq'));
CREATE INDEX IF NOT EXISTS reservations_device ON sandbox.reservations (device_id, seq);
CREATE INDEX IF NOT EXISTS reservations_resource ON sandbox.reservations (resource_id, start_time);
CREATE INDEX IF NOT EXISTS reservations_user ON sandbox.reservations (user_id);
CREATE TABLE IF NOT EXISTS sandbox.requests (
  id bigserial PRIMARY KEY, correlation_id uuid NOT NULL UNIQUE, operation text NOT NULL,
  approval_id text NOT NULL, payload jsonb NOT NULL, accepted_at timestamptz NOT NULL,
  processed_at timestamptz, outcome jsonb);
CREATE INDEX IF NOT EXISTS requests_pending ON sandbox.requests (id) WHERE processed_at IS NULL;
CREATE TABLE IF NOT EXISTS sandbox.webhooks (
  id uuid PRIMARY KEY, url text NOT NULL, secret text NOT NULL, created_at timestamptz NOT NULL);
CREATE TABLE IF NOT EXISTS sandbox.outbox (
  id bigserial PRIMARY KEY, subscription_id uuid NOT NULL, message_id text NOT NULL,
  payload text NOT NULL, attempts int NOT NULL DEFAULT 0, next_attempt_at timestamptz NOT NULL,
  delivered_at timestamptz, last_error text, created_at timestamptz NOT NULL);
CREATE INDEX IF NOT EXISTS outbox_due ON sandbox.outbox (next_attempt_at) WHERE delivered_at IS NULL;
CREATE TABLE IF NOT EXISTS sandbox.booking_rules (
  device_id uuid PRIMARY KEY, time_zone text NOT NULL, groups jsonb NOT NULL);
`;

export async function migrateSandbox(sql: SqlRunner): Promise<void> {
  await sql.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK_KEY]);
    await tx.exec(DDL);
    await tx.query(
      `INSERT INTO sandbox.meta (key, value) VALUES ('schema_version', $1)
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
      [SCHEMA_VERSION],
    );
  });
}

/** Data tables emptied by a reset (credentials, signing key and webhooks stay). */
export const DATA_TABLES = [
  'sandbox.reservations',
  'sandbox.users',
  'sandbox.user_groups',
  'sandbox.resources',
  'sandbox.time_schedules',
  'sandbox.api_keys',
  'sandbox.approvals',
  'sandbox.systems',
  'sandbox.requests',
  'sandbox.outbox',
  'sandbox.booking_rules',
];
