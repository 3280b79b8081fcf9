'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { runAction, type ActionState } from '@/lib/api/action-result';
import { ApiError } from '@/lib/api/errors';
import { newManagerSchema, passwordSchema } from '@/lib/auth/schemas';
import { requireAdmin } from '@/lib/auth/session';
import { createUser, findUserById, setManagerSystems, setPassword } from '@/lib/auth/users';
import { getDb } from '@/lib/db';
import { connectSystemsByApproval } from '@/lib/systems';
import { deviceIdSchema, systemUpdateSchema } from '@/lib/systems/schemas';
import { updateSystem } from '@/lib/systems/store';

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
};

export async function connectSystemsAction(_state: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const admin = await requireAdmin();
    const connected = await connectSystemsByApproval(text(form, 'approvalId'), admin.id);
    revalidatePath('/admin', 'layout');
    return `Connected ${connected.length} system${connected.length === 1 ? '' : 's'}: ${connected.map((s) => s.name).join(', ')}.`;
  });
}

export async function updateSystemAction(_state: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    await requireAdmin();
    const deviceId = deviceIdSchema.parse(text(form, 'deviceId'));
    const update = systemUpdateSchema.parse({
      name: text(form, 'name'),
      timeZone: text(form, 'timeZone'),
      bookingHorizonDays: text(form, 'bookingHorizonDays') || undefined,
      scheduleBasis: text(form, 'scheduleBasis') || undefined,
    });
    const system = await updateSystem((await getDb()).db, deviceId, update);
    revalidatePath('/', 'layout');
    const basis = system.scheduleBasis === 'local' ? ', schedule times in local time' : '';
    return `Saved ${system.name} (${system.timeZone}, bookable ${system.bookingHorizonDays} days ahead${basis}).`;
  });
}

export async function createManagerAction(_state: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    await requireAdmin();
    const input = newManagerSchema.parse({ name: text(form, 'name'), email: text(form, 'email'), password: text(form, 'password') });
    const user = await createUser((await getDb()).db, { ...input, role: 'manager' });
    revalidatePath('/admin/managers');
    return `Created ${user.name} (${user.email}).`;
  });
}

async function requireManager(userId: string) {
  const id = z.uuid('must be a user id').parse(userId);
  const user = await findUserById((await getDb()).db, id);
  if (!user || user.role !== 'manager') throw new ApiError('not_found', 'No such manager.');
  return user;
}

export async function resetPasswordAction(_state: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    await requireAdmin();
    const manager = await requireManager(text(form, 'userId'));
    const password = passwordSchema.parse(text(form, 'password'));
    await setPassword((await getDb()).db, manager.id, password);
    return `New password set for ${manager.name}; their open sessions were signed out.`;
  });
}

export async function assignSystemsAction(_state: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    await requireAdmin();
    const manager = await requireManager(text(form, 'userId'));
    const deviceIds = z.array(deviceIdSchema).parse(form.getAll('deviceId'));
    await setManagerSystems((await getDb()).db, manager.id, deviceIds);
    revalidatePath('/admin/managers');
    return `${manager.name} now has ${deviceIds.length} system${deviceIds.length === 1 ? '' : 's'}.`;
  });
}
