import { beforeEach, describe, expect, it } from 'vitest';
import { craftedClient } from '@/tests/crafted-service';
import { apartmentAuthorizations, clearApartmentAccessCache } from './apartment-access';

const DEVICE = '3e845b20-862b-4c29-b642-a4b697614d5e';
const GROUP = 'bf257548-1b18-4fd8-bf7e-690e7417e5d5';
const USER = '0b8f6c1e-4a55-4d3c-9a43-5d1f1d2b8a10';
const ROOM = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const group = { id: GROUP, apartmentId: '1203', referenceId: '' };

describe('apartmentAuthorizations', () => {
  beforeEach(() => clearApartmentAccessCache());

  it("gives the rooms the apartment's users may book, and null when the service does not say", async () => {
    const client = craftedClient({
      '/v1/reservations/users/apartment/1203': { userAccounts: [{ deviceId: DEVICE, userId: USER, name: 'A', email: 'a@example.com', userGroupId: GROUP, reservationResources: [ROOM] }] },
    });
    expect([...((await apartmentAuthorizations(client, 'key', DEVICE, group)) ?? [])]).toEqual([ROOM]);
    clearApartmentAccessCache();
    expect(await apartmentAuthorizations(client, 'key', DEVICE, { ...group, apartmentId: '9999' })).toBeNull();
    expect(await apartmentAuthorizations(client, 'key', DEVICE, { ...group, apartmentId: ' ', referenceId: '' })).toBeNull();
  });

  it('failing lookups never open the breaker that bookings read through', async () => {
    const client = craftedClient({
      '/v1/reservations/users/apartment/1203': () => Response.json({ title: 'boom', status: 500 }, { status: 500 }),
      [`/v1/reservations/users/fetch/${DEVICE}`]: { userAccounts: [{ deviceId: DEVICE, userId: USER, name: 'A', email: 'a@example.com', userGroupId: GROUP }] },
    });
    for (let i = 0; i < 10; i += 1) {
      clearApartmentAccessCache();
      expect(await apartmentAuthorizations(client, 'key', DEVICE, group)).toBeNull();
    }
    // The user list (a booking's resident check) still answers: only the lookups lane is paused.
    expect((await client.users.all('key', DEVICE)).map((u) => u.userId)).toEqual([USER]);
  });
});
