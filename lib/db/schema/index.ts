// One file per area; each migration in lib/db/migrations creates what its file here describes,
// and lib/db/schema.test.ts fails when the two disagree (columns, types, defaults, keys, indexes).
export * from './app-settings';
export * from './auth';
export * from './systems';
export * from './events';
export * from './mirror';
export * from './admin-audit';
export * from './calendar-feeds';
export * from './closures';
export * from './mail';
export * from './displays';
export * from './retention';
