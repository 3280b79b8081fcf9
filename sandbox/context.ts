import type { SqlRunner } from '@/shared/sql-runner';
import type { FaultState } from './faults';
import type { Preset } from './seed';
import type { RequestStats } from './stats';

/** The sandbox's client credentials and token signing key, kept in sandbox.meta (setup.ts). */
export interface Credentials {
  tenantId: string;
  clientId: string;
  clientSecret: string;
  audience: string;
  signingKey: Uint8Array;
}

/** What every route handler is given: the sandbox's database, clock, faults and settings. */
export interface SandboxContext {
  sql: SqlRunner;
  now: () => Date;
  faults: FaultState;
  credentials: Credentials;
  tokenTtlSeconds: number;
  quotaPerGroup: number;
  /** The preset, seed and portfolio size of the options; POST /_sandbox/reset falls back to them. */
  defaults: { preset?: Preset; seed?: number; systems?: number };
  /** Wakes the background worker: a request was accepted. */
  kick: () => void;
  /** Requests served, by route and system (GET /_sandbox/stats). */
  stats: RequestStats;
}

/** The systems an API key covers (auth.ts requireKey). */
export interface ApiKeyScope {
  approvalId: string;
  deviceIds: string[];
}

/** One request as a handler sees it: the request, its URL and the path's named segments (decoded). */
export interface Call {
  request: Request;
  url: URL;
  /** A `:name` segment of the route's path. */
  param: (name: string) => string;
}

/** A call under /v1 that carried a valid bearer token and API key. */
export interface KeyedCall extends Call {
  key: ApiKeyScope;
}

export type Handler<C extends Call = Call> = (ctx: SandboxContext, call: C) => Promise<Response>;

export type Row = Record<string, unknown>;
