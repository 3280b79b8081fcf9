import { visibleTo } from '@/lib/auth/access';
import { requireAdmin } from '@/lib/api/session';
import { withErrors } from '@/lib/api/route';
import { getDb } from '@/lib/db';
import { ApiError } from '@/lib/errors/api-error';
import { msg } from '@/lib/i18n/message';
import { attachmentDisposition } from '@/lib/exports/file-name';
import { SYSTEM_EXPORT_FORMATS, systemsExportStream, systemsExportTable, type SystemExportFormat } from '@/lib/exports/systems';
import { systemListParamsOrThrow } from '@/lib/views/systems-list';

export const dynamic = 'force-dynamic';

// GET /api/admin/systems/export — admin downloads the systems list (its search and filters, no paging) as CSV or XLSX in the import's columns
export const GET = withErrors(async (request: Request) => {
  const search = new URL(request.url).searchParams;
  const format = search.get('format') ?? 'csv';
  if (!Object.hasOwn(SYSTEM_EXPORT_FORMATS, format)) throw new ApiError('bad_request', msg('systemImport.badFormat', { value: format.slice(0, 32) }));
  const params = systemListParamsOrThrow(search);
  const admin = await requireAdmin();
  const table = await systemsExportTable({ db: (await getDb()).db }, visibleTo(admin.id), params);
  const name = `systems.${format}`;
  return new Response(systemsExportStream(table, format as SystemExportFormat), {
    headers: { 'content-type': SYSTEM_EXPORT_FORMATS[format as SystemExportFormat], 'content-disposition': attachmentDisposition({ ascii: name, unicode: name }) },
  });
});
