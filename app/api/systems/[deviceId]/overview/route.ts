import { withSystemAccess } from '@/lib/api/system-route';
import { portalViewDeps } from '@/lib/wiring';
import { loadSystemOverview } from '@/lib/views/system-overview';

export const dynamic = 'force-dynamic';

// GET /api/systems/{deviceId}/overview — resources with this week's occupancy and now-status, and the 8-week heatmap
export const GET = withSystemAccess(async (_request, { system }) => Response.json(await loadSystemOverview(await portalViewDeps(), system)));
