import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { dataInventory, notPersonal } from '../personal-marks';

export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Personal data in app_settings (decision 032): none; portal-wide settings only. */
export const appSettingsData = dataInventory(appSettings, {
  key: notPersonal('a setting’s name'),
  value: notPersonal('a portal-wide setting’s value'),
});
