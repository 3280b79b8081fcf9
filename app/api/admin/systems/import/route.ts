import { requireAdmin } from '@/lib/api/session';
import { readBytesCapped } from '@/lib/api/body';
import { localeOfRequest, withErrors } from '@/lib/api/route';
import { assertSameOrigin } from '@/lib/api/origin';
import { getDb } from '@/lib/db';
import { ApiError } from '@/lib/errors/api-error';
import { msg } from '@/lib/i18n/message';
import { renderMessage } from '@/lib/i18n/server';
import { applySystemImport, planSystemImport, SYSTEM_IMPORT_MAX_BYTES } from '@/lib/admin/system-import';

export const dynamic = 'force-dynamic';

// POST /api/admin/systems/import — admin uploads a CSV or XLSX of names, streets, cities and areas: what it would change (?confirm=1: applies it, all or nothing)
export const POST = withErrors(async (request: Request) => {
  assertSameOrigin(request);
  const confirm = new URL(request.url).searchParams.get('confirm');
  if (confirm !== null && confirm !== '1') throw new ApiError('bad_request', msg('systemImport.badConfirm'));
  const admin = await requireAdmin();
  const bytes = await readBytesCapped(request, SYSTEM_IMPORT_MAX_BYTES, msg('systemImport.tooLarge', { max: SYSTEM_IMPORT_MAX_BYTES / 1024 / 1024 }));
  const { db } = await getDb();
  const plan = confirm === '1' ? await applySystemImport(db, admin, bytes) : await planSystemImport(db, bytes);
  const locale = await localeOfRequest(request);
  const errors = await Promise.all(plan.errors.map(async (e) => ({ row: e.row, column: e.column, message: await renderMessage(locale, e.message) })));
  return Response.json({ applied: confirm === '1', ...plan, errors });
});
