import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { requirePageAdmin } from '@/lib/api/session';
import { getDb } from '@/lib/db';
import { deviceIdSchema } from '@/lib/systems/schemas';
import { getSystem } from '@/lib/systems/store';
import { SystemSettings } from '../system-settings';

type Props = { params: Promise<{ deviceId: string }> };

async function systemOf(deviceId: string) {
  const parsed = deviceIdSchema.safeParse(deviceId);
  if (!parsed.success) return undefined;
  return getSystem((await getDb()).db, parsed.data.toLowerCase());
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const t = await getTranslations('admin.systems');
  const system = await systemOf((await params).deviceId);
  return { title: system ? t('settingsTitle', { name: system.name }) : t('title') };
}

export default async function AdminSystemPage({ params }: Props) {
  const { deviceId } = await params;
  await requirePageAdmin(`/admin/systems/${deviceId}`);
  const system = await systemOf(deviceId);
  if (!system) notFound();
  const t = await getTranslations('admin.systems');
  const { db } = await getDb();
  return (
    <div className="flex flex-col gap-4">
      <Link href="/admin/systems" className="font-medium text-brand-700 underline dark:text-blue-300">{t('backToList')}</Link>
      <h1 className="text-2xl font-semibold tracking-tight">{t('settingsTitle', { name: system.name })}</h1>
      <ul aria-label={t('listLabel')} className="grid gap-3">
        <SystemSettings db={db} system={system} />
      </ul>
    </div>
  );
}
