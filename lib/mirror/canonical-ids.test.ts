import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeWithDb } from '@/tests/db';
import { mirrorSnapshot } from './snapshot';
import { readState } from './store';

const DEVICE = '5a1d0000-0000-4000-8000-0000000047a1';
const SCHEDULE = '5a1d0000-0000-4000-8000-0000000047b1';
const room = (n: number) => `5a1d0000-0000-4000-8000-0000000047c${n}`;

// Rows a portal before issue 47 stored in the service's spelling: migration 0034 rewrites them once.
describeWithDb('migration 0034: stored schedule ids in the canonical spelling', (ctx) => {
  it('rewrites GUIDs in upper case, mixed case and braces, and leaves other strings alone', async () => {
    const { sql, db } = ctx().handle;
    const spelled = [SCHEDULE.toUpperCase(), `{${SCHEDULE}}`, ` {${SCHEDULE.replace(/a/g, 'A')}} `, SCHEDULE, 'WEEK-A', `{${SCHEDULE}`, ''];
    await sql.query(`INSERT INTO mirror_state (device_id, generation, refreshed_at, refresh_ended_at) VALUES ($1, 1, now(), now())`, [DEVICE]);
    await sql.query(`INSERT INTO mirror_time_schedules (device_id, generation, id, schedule_type, schedule) VALUES ($1, 1, $2, 'Week', '[[[360,180]],[],[],[],[],[],[]]'::jsonb)`, [DEVICE, SCHEDULE]);
    for (const [i, id] of spelled.entries()) {
      await sql.query(`INSERT INTO mirror_resources (device_id, generation, id, name, description, time_schedule_id) VALUES ($1, 1, $2, $3, '', $4)`, [DEVICE, room(i), `Room ${i}`, id]);
    }
    await sql.exec(await readFile(path.join(process.cwd(), 'lib/db/migrations/0034_canonical_schedule_ids.sql'), 'utf8'));
    const { rows } = await sql.query<{ name: string; time_schedule_id: string }>(`SELECT name, time_schedule_id FROM mirror_resources WHERE device_id = $1 ORDER BY name`, [DEVICE]);
    expect(rows.map((r) => r.time_schedule_id)).toEqual([SCHEDULE, SCHEDULE, SCHEDULE, SCHEDULE, 'WEEK-A', `{${SCHEDULE}`, '']);
    // The rooms find their schedule again.
    const state = await readState(db, DEVICE);
    const snapshot = await mirrorSnapshot(db, DEVICE, state!);
    expect(snapshot?.resources.map((r) => r.schedule.length > 0)).toEqual([true, true, true, true, false, false, false]);
  });
});
