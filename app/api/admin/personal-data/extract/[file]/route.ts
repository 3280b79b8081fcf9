import { ApiError } from '@/lib/errors/api-error';
import { readTextCapped } from '@/lib/api/body';
import { assertSameOrigin } from '@/lib/api/origin';
import { localeOfRequest, withErrors } from '@/lib/api/route';
import { requireAdmin } from '@/lib/api/session';
import { getDb } from '@/lib/db';
import { msg } from '@/lib/i18n/message';
import { downloadExtract, parseExtractFile, parseExtractLocale, parseResidentRef } from '@/lib/personal-data/download';

export const dynamic = 'force-dynamic';

const FORM_BODY_MAX_BYTES = 4096;

type Context = { params: Promise<{ file: string }> };

// POST /api/admin/personal-data/extract/{extract.html|extract.json} — admin downloads everything the portal holds about one resident (form: deviceId, userId, locale); audited
export const POST = withErrors(async (request: Request, { params }: Context) => {
  assertSameOrigin(request);
  const admin = await requireAdmin();
  const file = parseExtractFile((await params).file);
  if (!/^application\/x-www-form-urlencoded\b/i.test(request.headers.get('content-type') ?? '')) {
    throw new ApiError('unsupported_media_type', msg('errors.personalDataFormType'));
  }
  const form = new URLSearchParams(await readTextCapped(request, FORM_BODY_MAX_BYTES));
  const who = parseResidentRef(form.get('deviceId'), form.get('userId'));
  const locale = parseExtractLocale(form.get('locale'), await localeOfRequest(request));
  const { db } = await getDb();
  const download = await downloadExtract(db, { id: admin.id, name: admin.name }, who, file, locale);
  return new Response(download.body, {
    headers: {
      'content-type': download.contentType,
      'content-disposition': `attachment; filename="${download.fileName}"`,
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
    },
  });
});
