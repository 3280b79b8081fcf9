import type { Metadata } from 'next';
import { SystemList } from '@/components/shell/system-list';
import { listAccessibleSystems } from '@/lib/auth/access';
import { requirePageUser } from '@/lib/auth/session';

export const metadata: Metadata = { title: 'Systems' };

export default async function SystemsPage() {
  const user = await requirePageUser('/systems');
  const systems = await listAccessibleSystems(user);
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-semibold tracking-tight">Systems</h1>
      {systems.length === 0 ? (
        <p className="text-slate-600 dark:text-slate-300">
          {user.role === 'admin' ? 'No systems are connected yet. Connect one under Admin → Systems.' : 'No systems are assigned to you yet. Ask an admin to assign one.'}
        </p>
      ) : (
        <SystemList systems={systems} label="Your systems" />
      )}
    </div>
  );
}
