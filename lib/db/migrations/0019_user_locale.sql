-- A user's chosen language for the portal ('sv', 'en'; null = follow the browser, then the
-- portal's default). Checked by the application against i18n/config.ts, so that adding a
-- language needs no migration; the length bound keeps the column a language tag.
ALTER TABLE users ADD COLUMN IF NOT EXISTS locale text;
ALTER TABLE users DROP CONSTRAINT IF EXISTS users_locale_length;
ALTER TABLE users ADD CONSTRAINT users_locale_length CHECK (locale IS NULL OR char_length(locale) BETWEEN 2 AND 16);
