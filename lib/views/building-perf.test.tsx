import { performance } from 'node:perf_hooks';
import { renderToString } from 'react-dom/server';
import { expect, it } from 'vitest';
import { waitForRefresh } from '@/lib/mirror/refresh';
import { serviceMirrorSource } from '@/lib/mirror/service-source';
import { describeWithDb } from '@/tests/db';
import { startTestSandbox } from '@/tests/sandbox-service';
import { withIntl } from '@/tests/intl';
import { BuildingBody } from '@/components/building/building-view';
import { loadBuildingView } from './building';
import { loadResourceWeek } from './resource-week';

describeWithDb('perf probe', (ctx) => {
  it('large', async () => {
    const { sandbox, fixtures, client } = await startTestSandbox({ sql: ctx().handle.sql, preset: 'large', seed: 1 });
    const approval = fixtures.approvals[0]!;
    const apiKey = (await client.apiKeys.generate(approval.approvalId)).apiKey;
    const deviceId = approval.deviceIds[0]!;
    const system = { deviceId, name: 'L', timeZone: 'Europe/Stockholm', status: 'active' as const, bookingHorizonDays: 28, scheduleBasis: 'utc' as const, bookingQuota: 2 };
    const deps = { db: ctx().handle.db, source: () => Promise.resolve(serviceMirrorSource(client, apiKey)), freshnessMs: 3_600_000 };
    await loadBuildingView(deps, system, { day: undefined, mode: 'week', onlyFree: false, roomId: undefined });
    await new Promise((r) => setTimeout(r, 0));
    await waitForRefresh(deviceId);
    for (const mode of ['week', 'day'] as const) {
      const times: number[][] = [];
      let html = '';
      for (let i = 0; i < 12; i++) {
        const t0 = performance.now();
        const view = await loadBuildingView(deps, system, { day: undefined, mode, onlyFree: false, roomId: undefined });
        const t1 = performance.now();
        html = renderToString(withIntl(<BuildingBody deviceId={deviceId} timeZone={system.timeZone} mode={mode} day={view.day} week={view.week} nav={view.nav} allRooms={view.allRooms} rooms={view.rooms} loading={false} onlyFree={false} roomId={undefined} problems={[]} />));
        const t2 = performance.now();
        times.push([t1 - t0, t2 - t1]);
        if (i === 0) console.log(mode, 'rooms', view.rooms.length, 'slots', view.rooms.reduce((s, r) => s + r.slots.length, 0), 'free', view.rooms.reduce((s, r) => s + r.free, 0));
      }
      const med = (k: number) => times.slice(2).map((t) => t[k]!).sort((a, b) => a - b)[5]!;
      console.log(mode, 'cold view', times[0]![0].toFixed(1), 'warm view p50', med(0).toFixed(1), 'render p50', med(1).toFixed(1), 'html kB', (html.length / 1024).toFixed(0));
    }
    const room = fixtures.residents.find((r) => r.deviceId === deviceId)!.resourceIds[0]!;
    const rt: number[] = [];
    for (let i = 0; i < 12; i++) {
      const t0 = performance.now();
      await loadResourceWeek(deps, system, room);
      rt.push(performance.now() - t0);
    }
    console.log('room week view p50', rt.slice(2).sort((a, b) => a - b)[5]!.toFixed(1));
    await sandbox.stop();
    expect(1).toBe(1);
  }, 600_000);
});
