export { openSandboxSql } from './sql';
export type { Sandbox, SandboxFixtures, SandboxOptions } from './sandbox';
export { createSandbox, DEFAULT_RETRY_SCHEDULE_MS } from './sandbox';
export { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './paging';
export type { AfterAccept, Faults, Shapes } from './faults';
export { ODD_TOKEN_PREFIX } from './shapes';
export type { ReservationResultEvent, ErrorCode } from './processor';
export { ERROR_CODES } from './processor';
export type { Preset } from './seed';
