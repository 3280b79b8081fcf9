import { integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { dataInventory, notPersonal } from '../personal-marks';

/** A retention class's period as an admin set it (migration 0032; written by lib/personal-data only). */
export const retentionSettings = pgTable('retention_settings', {
  retentionClass: text('retention_class').primaryKey(),
  /** Months, or days for e-mail bodies (lib/personal-data/retention-settings.ts). */
  amount: integer('amount').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** What a job's last run changed: rows per table, and whether it got through everything due. */
export interface StoredJobResult {
  counts: Record<string, number>;
  complete: boolean;
}

/** Leases of jobs that run on one instance at a time (migration 0032), and their last outcome. */
export const jobLeases = pgTable('job_leases', {
  name: text('name').primaryKey(),
  /** The instance's run holding the lease (a random id). */
  holder: text('holder'),
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
  lastStartedAt: timestamp('last_started_at', { withTimezone: true }),
  lastFinishedAt: timestamp('last_finished_at', { withTimezone: true }),
  lastResult: jsonb('last_result').$type<StoredJobResult>(),
});

/** Personal data in retention_settings (decision 032): none. */
export const retentionSettingsData = dataInventory(retentionSettings, {
  retentionClass: notPersonal('a retention class’s name'),
});

/** Personal data in job_leases (decision 032): none; counts per table, no rows. */
export const jobLeasesData = dataInventory(jobLeases, {
  name: notPersonal('a job’s name'),
  holder: notPersonal('a random id of the run holding the lease'),
  lastResult: notPersonal('counts of rows changed per table, no row’s content'),
});
