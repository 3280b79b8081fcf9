'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { runAction, type ActionState } from '@/lib/api/action-result';
import { assignManagerSystems, createAccount, deactivateAccount, deleteAccount, reactivateAccount, resetManagerPassword } from '@/lib/admin/accounts';
import { disconnectSystem, setResourceKind, updateSystemSettings } from '@/lib/admin/systems';
import { RESOURCE_KINDS } from '@/lib/schedule/resource-kind';
import { newAccountSchema, passwordSchema } from '@/lib/auth/schemas';
import { requireAdmin } from '@/lib/auth/session';
import { getDb } from '@/lib/db';
import { connectSystemsByApproval } from '@/lib/systems';
import { deviceIdSchema, systemUpdateSchema } from '@/lib/systems/schemas';

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
};

const userIdOf = (form: FormData) => z.uuid('must be a user id').parse(text(form, 'userId'));

export async function connectSystemsAction(_state: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const admin = await requireAdmin();
    const connected = await connectSystemsByApproval(text(form, 'approvalId'), admin);
    revalidatePath('/admin', 'layout');
    return `Connected ${connected.length} system${connected.length === 1 ? '' : 's'}: ${connected.map((s) => s.name).join(', ')}.`;
  });
}

export async function updateSystemAction(_state: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const admin = await requireAdmin();
    const deviceId = deviceIdSchema.parse(text(form, 'deviceId'));
    const update = systemUpdateSchema.parse({
      name: text(form, 'name'),
      timeZone: text(form, 'timeZone'),
      bookingHorizonDays: text(form, 'bookingHorizonDays') || undefined,
      scheduleBasis: text(form, 'scheduleBasis') || undefined,
      bookingQuota: text(form, 'bookingQuota') || undefined,
    });
    const system = await updateSystemSettings((await getDb()).db, admin, deviceId, update);
    revalidatePath('/', 'layout');
    const basis = system.scheduleBasis === 'local' ? ', schedule times in local time' : '';
    const quota = `${system.bookingQuota} booking${system.bookingQuota === 1 ? '' : 's'} per apartment and room`;
    return `Saved ${system.name} (${system.timeZone}, bookable ${system.bookingHorizonDays} days ahead, ${quota}${basis}).`;
  });
}

const resourceKindSchema = z.union([z.literal('').transform(() => null), z.enum(RESOURCE_KINDS, { error: 'must be laundry, drying or other' })]);

export async function updateResourceKindAction(_state: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const admin = await requireAdmin();
    const deviceId = deviceIdSchema.parse(text(form, 'deviceId'));
    const resourceId = z.uuid('must be a resource id').parse(text(form, 'resourceId'));
    const kind = resourceKindSchema.parse(text(form, 'kind'));
    const set = await setResourceKind((await getDb()).db, admin, deviceId, resourceId, kind);
    revalidatePath('/', 'layout');
    return `${set.resourceName || 'The room'} is now a ${set.kind === 'laundry' ? 'laundry room' : set.kind === 'drying' ? 'drying room' : 'room of another kind'}${set.guessed ? ' (guessed from its name)' : ''}.`;
  });
}

export async function disconnectSystemAction(_state: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const admin = await requireAdmin();
    const deviceId = deviceIdSchema.parse(text(form, 'deviceId'));
    const { system, unassigned } = await disconnectSystem((await getDb()).db, admin, deviceId);
    revalidatePath('/', 'layout');
    const managers = unassigned === 0 ? '' : ` ${unassigned} manager${unassigned === 1 ? '' : 's'} no longer see${unassigned === 1 ? 's' : ''} it.`;
    return `Disconnected ${system.name}.${managers}`;
  });
}

export async function createAccountAction(_state: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const admin = await requireAdmin();
    const input = newAccountSchema.parse({ name: text(form, 'name'), email: text(form, 'email'), password: text(form, 'password'), role: text(form, 'role') || 'manager' });
    const user = await createAccount((await getDb()).db, admin, input);
    revalidatePath('/admin/managers');
    return `Created ${user.role === 'admin' ? 'admin' : 'manager'} ${user.name} (${user.email}).`;
  });
}

export async function resetPasswordAction(_state: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const admin = await requireAdmin();
    const userId = userIdOf(form);
    const password = passwordSchema.parse(text(form, 'password'));
    const manager = await resetManagerPassword((await getDb()).db, admin, userId, password);
    return `New password set for ${manager.name}; their open sessions were signed out.`;
  });
}

export async function assignSystemsAction(_state: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const admin = await requireAdmin();
    const userId = userIdOf(form);
    const deviceIds = z.array(deviceIdSchema).parse(form.getAll('deviceId'));
    const manager = await assignManagerSystems((await getDb()).db, admin, userId, deviceIds);
    revalidatePath('/admin/managers');
    return `${manager.name} now has ${deviceIds.length} system${deviceIds.length === 1 ? '' : 's'}.`;
  });
}

export async function deactivateAccountAction(_state: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const admin = await requireAdmin();
    const user = await deactivateAccount((await getDb()).db, admin, userIdOf(form));
    revalidatePath('/admin/managers');
    return `Deactivated ${user.name}; they were signed out everywhere.`;
  });
}

export async function reactivateAccountAction(_state: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const admin = await requireAdmin();
    const user = await reactivateAccount((await getDb()).db, admin, userIdOf(form));
    revalidatePath('/admin/managers');
    return `Reactivated ${user.name}; they can sign in again.`;
  });
}

export async function deleteAccountAction(_state: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const admin = await requireAdmin();
    const user = await deleteAccount((await getDb()).db, admin, userIdOf(form));
    revalidatePath('/admin/managers');
    return `Deleted ${user.name}.`;
  });
}
