import 'server-only';

export { createServiceClient, type ServiceClient, type ServiceClientConfig, type FetchLike, type ListOptions, type LookupOptions } from './client';
export { getServiceClient, createPortalServiceClient, sandboxBaseUrl } from './client-from-settings';
export { LIST_PAGES_MAX, Paginator, type ListIncomplete, type Page, type PageResume } from './paginator';
export { BreakerRegistry, isServiceFault, type CallLane, defaultBreakerRegistry, DEFAULT_BREAKER, DEFAULT_RETRY, DEFAULT_TIMEOUT_MS, type BreakerSettings, type RetrySettings } from './policies';
export * from './errors';
export * from './schemas';
