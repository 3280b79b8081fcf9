// Prepares the portal's fresh database before the benchmark starts it (remote mode seeds nothing):
// applies the portal's migrations, creates one admin account (and the viewers' accounts whose
// browsers watch the event stream in (d)), and files the pending booking requests whose outcomes
// the webhook-to-browser measurement delivers.
// Run with `tsx --conditions=react-server` (server-only modules), by scripts/bench.ts only.
// Input (JSON on stdin): { dataDir, adminEmail, adminPassword, viewers: [{ email, password }], requests: [{ id, correlationId, deviceId, resourceId, residentUserId, startTime, endTime }] }
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase } from '@/lib/db/client';
import { arrayParam as array } from '@/lib/db/raw';
import { createUser } from '@/lib/auth/users';

interface SetupInput {
  dataDir: string;
  adminEmail: string;
  adminPassword: string;
  viewers?: { email: string; password: string }[];
  requests: {
    id: string;
    correlationId: string;
    deviceId: string;
    resourceId: string;
    residentUserId: string;
    startTime: string;
    endTime: string;
  }[];
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const input = JSON.parse(await readStdin()) as SetupInput;
const handle = await openDatabase({ dataDir: path.resolve(input.dataDir, 'pglite') });
try {
  const admin = await createUser(handle.db, { email: input.adminEmail, name: 'Benchmark Admin', role: 'admin', password: input.adminPassword });
  for (const [i, viewer] of (input.viewers ?? []).entries()) {
    await createUser(handle.db, { email: viewer.email, name: `Benchmark Viewer ${i + 1}`, role: 'admin', password: viewer.password });
  }
  const r = input.requests;
  if (r.length > 0) {
    // One statement for all of them (arrays unnested), as the mirror writes its pages.
    await handle.db.execute(
      sql`INSERT INTO reservation_requests
            (id, kind, device_id, resource_id, resident_user_id, start_time, end_time, requested_by, status, correlation_id)
          SELECT id, 'create', device_id, resource_id, resident_user_id, start_time, end_time, ${admin.id}, 'pending', correlation_id
            FROM unnest(${array(r.map((x) => x.id))}::uuid[], ${array(r.map((x) => x.deviceId))}::uuid[], ${array(r.map((x) => x.resourceId))}::uuid[],
                        ${array(r.map((x) => x.residentUserId))}::uuid[], ${array(r.map((x) => x.startTime))}::timestamptz[],
                        ${array(r.map((x) => x.endTime))}::timestamptz[], ${array(r.map((x) => x.correlationId))}::uuid[])
              AS u(id, device_id, resource_id, resident_user_id, start_time, end_time, correlation_id)`,
    );
  }
  process.stdout.write(JSON.stringify({ adminId: admin.id, requests: r.length }) + '\n');
} finally {
  await handle.close();
}
