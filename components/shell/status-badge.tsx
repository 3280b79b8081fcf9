import { useTranslations } from 'next-intl';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import type { SystemPublic } from '@/lib/systems/schemas';

const STATUS_TONE: Record<SystemPublic['status'], BadgeTone> = { active: 'success', error: 'danger', disconnected: 'neutral' };

export function StatusBadge({ status }: { status: SystemPublic['status'] }) {
  const t = useTranslations('common');
  return <Badge tone={STATUS_TONE[status]}>{t('systemStatus', { status })}</Badge>;
}
