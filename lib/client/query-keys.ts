// Every React Query key of the portal, in one place: each useQuery, setQueryData,
// setQueriesData and invalidateQueries takes its key from here, so a reader and a writer of the
// same cache entry cannot drift apart.

export const queryKeys = {
  /** Every cached week of one resource (a prefix: live updates touch all of its weeks). */
  resourceWeeks: (deviceId: string, resourceId: string) => ['resource-week', deviceId, resourceId] as const,
  /** One week of a resource: GET /api/systems/{deviceId}/resources/{resourceId}/week?week= */
  resourceWeek: (deviceId: string, resourceId: string, week: string) => [...queryKeys.resourceWeeks(deviceId, resourceId), week] as const,
  /** A system page's overview: GET /api/systems/{deviceId}/overview */
  systemOverview: (deviceId: string) => ['system-overview', deviceId] as const,
  /** Every cached page of the Requests list (a prefix: live updates touch all of them). */
  requestLists: () => ['requests'] as const,
  /** One page of the Requests list, by its search ("?status=failed&before=…"): GET /api/requests */
  requests: (search: string) => [...queryKeys.requestLists(), search] as const,
  /** A resident search, in every system or one: GET /api/residents?q=&deviceId= */
  residents: (q: string, deviceId?: string) => ['residents', q, deviceId ?? null] as const,
};
