import 'server-only';
import { z } from 'zod';
import type { Database } from '@/lib/db';
import { recordAudit, residentAuditTargetId, type Actor } from '@/lib/admin/audit';
import { ApiError } from '@/lib/errors/api-error';
import { isLocale, type Locale } from '@/lib/i18n/config';
import { msg } from '@/lib/i18n/message';
import { extractHtml, extractJson, isExtractFile, type ExtractFile } from './document';
import { gatherExtract, type ResidentRef } from './extract';

export interface ExtractDownload {
  body: string;
  contentType: string;
  fileName: string;
}

const uuid = z.uuid();

/** The resident a download names (system and user id), or a 400 saying which id is wrong. */
export function parseResidentRef(deviceId: string | null, userId: string | null): ResidentRef {
  if (!deviceId || !uuid.safeParse(deviceId).success) throw new ApiError('bad_request', msg('errors.personalDataBadSystem'));
  if (!userId || !uuid.safeParse(userId).success) throw new ApiError('bad_request', msg('errors.personalDataBadUser'));
  return { deviceId: deviceId.toLowerCase(), userId: userId.toLowerCase() };
}

/** The file asked for, or a 404. */
export function parseExtractFile(file: string): ExtractFile {
  if (!isExtractFile(file)) throw new ApiError('not_found', msg('errors.personalDataNoFile'));
  return file;
}

/** The document's language: the one chosen, else the reader's; a language the portal lacks is a 400. */
export function parseExtractLocale(chosen: string | null, fallback: Locale): Locale {
  if (chosen === null || chosen === '') return fallback;
  if (!isLocale(chosen)) throw new ApiError('bad_request', msg('errors.personalDataBadLanguage'));
  return chosen;
}

/**
 * One download of a resident's extract, recorded in the audit log with it (who, which resident,
 * which file; none of the data). A resident the portal knows nothing of is a 404, and no entry.
 */
export async function downloadExtract(db: Database, actor: Actor, who: ResidentRef, file: ExtractFile, locale: Locale, now: Date = new Date()): Promise<ExtractDownload> {
  const extract = await gatherExtract(db, who, now);
  if (!extract) throw new ApiError('not_found', msg('errors.personalDataNoResident'));
  const format = file === 'extract.json' ? 'json' : 'html';
  const body = format === 'json' ? extractJson(extract) : await extractHtml(extract, locale);
  await recordAudit(db, actor, {
    action: 'personal-data.extract',
    targetType: 'resident',
    targetId: residentAuditTargetId(who),
    targetName: extract.resident.name || extract.resident.apartment || undefined,
    detail: { system: extract.resident.systemName, format, locale },
  });
  const day = now.toISOString().slice(0, 10);
  return {
    body,
    contentType: format === 'json' ? 'application/json; charset=utf-8' : 'text/html; charset=utf-8',
    fileName: `personal-data-${day}-${who.userId.slice(0, 8)}.${format}`,
  };
}
