// One file per area; each migration in lib/db/migrations creates what its file here describes.
export * from './app-settings';
export * from './auth';
export * from './systems';
export * from './events';
export * from './mirror';
