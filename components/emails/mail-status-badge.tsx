import { Badge, type BadgeTone } from '@/components/ui/badge';
import type { MailStatus } from '@/lib/db/schema/mail';

const TONE: Record<MailStatus, BadgeTone> = { queued: 'neutral', sent: 'success', captured: 'neutral', skipped: 'neutral', failed: 'danger' };

/** An e-mail's status in words (the label, already translated), coloured by how it went. */
export function MailStatusBadge({ status, label }: { status: MailStatus; label: string }) {
  return <Badge tone={TONE[status]}>{label}</Badge>;
}
