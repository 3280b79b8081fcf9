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
  /** Everything cached about one apartment (a prefix: live updates refetch all of it). */
  apartmentAll: (deviceId: string, groupId: string) => ['apartment', deviceId, groupId] as const,
  /** The apartment page: GET /api/systems/{deviceId}/apartments/{groupId} */
  apartment: (deviceId: string, groupId: string) => [...queryKeys.apartmentAll(deviceId, groupId), 'view'] as const,
  /** Its next free slots by filter ("kind=laundry&dayPart=evening"): GET …/apartments/{groupId}/next-free */
  apartmentNextFree: (deviceId: string, groupId: string, search: string) => [...queryKeys.apartmentAll(deviceId, groupId), 'next-free', search] as const,
  /** A system's room closures in force or to come, with their progress: GET /api/systems/{deviceId}/closures */
  closures: (deviceId: string) => ['closures', deviceId] as const,
};
