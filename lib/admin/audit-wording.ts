// What an audit entry says on the log page, in a sentence. Pure: details are read tolerantly, since
// entries outlive the code that wrote them.

export interface AuditEntryLike {
  action: string;
  targetName: string | null;
  targetId: string | null;
  detail: Record<string, unknown> | null;
}

const SETTING_LABELS: Record<string, string> = {
  name: 'name',
  timeZone: 'time zone',
  bookingHorizonDays: 'bookable days ahead',
  scheduleBasis: 'schedule times',
  bookingQuota: 'bookings per apartment and room',
};

const text = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '–');
const list = (value: unknown): string[] => (Array.isArray(value) ? value.map(text) : []);

export function describeAuditEntry(entry: AuditEntryLike): string {
  const target = entry.targetName ?? entry.targetId ?? 'an unknown target';
  const detail = entry.detail ?? {};
  const email = typeof detail.email === 'string' ? ` (${detail.email})` : '';
  const role = detail.role === 'admin' ? 'admin' : detail.role === 'manager' ? 'manager' : 'account';
  switch (entry.action) {
    case 'system.connect':
      return `Connected the system ${target}.`;
    case 'system.disconnect': {
      const managers = typeof detail.unassignedManagers === 'number' && detail.unassignedManagers > 0 ? ` ${detail.unassignedManagers} manager${detail.unassignedManagers === 1 ? '' : 's'} lost access.` : '';
      const key = detail.apiKeyRemoved === true ? ' Its API key was removed.' : '';
      return `Disconnected the system ${target}.${managers}${key}`;
    }
    case 'system.update': {
      const changes = Object.entries(detail).map(([key, change]) => {
        const { from, to } = (change ?? {}) as { from?: unknown; to?: unknown };
        return `${SETTING_LABELS[key] ?? key} ${text(from)} → ${text(to)}`;
      });
      return `Changed the system ${target}: ${changes.join('; ') || 'no details'}.`;
    }
    case 'system.resource-kind': {
      const room = typeof detail.resourceName === 'string' && detail.resourceName ? detail.resourceName : text(detail.resourceId);
      const to = detail.to === null || detail.to === undefined ? 'guessed from its name' : text(detail.to);
      return `Set the kind of ${room} in ${target}: ${text(detail.from)} → ${to}.`;
    }
    case 'account.create':
      return `Created the ${role} ${target}${email}.`;
    case 'account.deactivate':
      return `Deactivated the ${role} ${target}${email}.`;
    case 'account.reactivate':
      return `Reactivated the ${role} ${target}${email}.`;
    case 'account.delete':
      return `Deleted the ${role} ${target}${email}.`;
    case 'account.password-reset':
      return `Set a new password for ${target}.`;
    case 'account.systems': {
      const added = list(detail.added);
      const removed = list(detail.removed);
      const parts = [added.length ? `added ${added.join(', ')}` : '', removed.length ? `removed ${removed.join(', ')}` : ''].filter(Boolean);
      return `Changed the systems of ${target}: ${parts.join('; ') || 'no change'}.`;
    }
    default:
      return `${entry.action} on ${target}.`;
  }
}
