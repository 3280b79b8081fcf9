// Prepares the portal's fresh database before the benchmark starts it (remote mode seeds nothing):
// applies the portal's migrations, creates one admin account, and files the pending booking
// requests whose outcomes the webhook-to-browser measurement delivers.
// Run with `tsx --conditions=react-server` (server-only modules), by scripts/bench.ts only.
// Input (JSON on stdin): { dataDir, adminEmail, adminPassword, requests: [{ id, correlationId, deviceId, resourceId, residentUserId, startTime, endTime }] }
import path from 'node:path';
import { openDatabase } from '@/lib/db/client';
import { createUser } from '@/lib/auth/users';

interface SetupInput {
  dataDir: string;
  adminEmail: string;
  adminPassword: string;
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
  const r = input.requests;
  if (r.length > 0) {
    await handle.sql.query(
      `INSERT INTO reservation_requests
         (id, kind, device_id, resource_id, resident_user_id, start_time, end_time, requested_by, status, correlation_id)
       SELECT id, 'create', device_id, resource_id, resident_user_id, start_time, end_time, $1, 'pending', correlation_id
         FROM unnest($2::uuid[], $3::uuid[], $4::uuid[], $5::uuid[], $6::timestamptz[], $7::timestamptz[], $8::uuid[])
           AS u(id, device_id, resource_id, resident_user_id, start_time, end_time, correlation_id)`,
      [
        admin.id,
        r.map((x) => x.id),
        r.map((x) => x.deviceId),
        r.map((x) => x.resourceId),
        r.map((x) => x.residentUserId),
        r.map((x) => x.startTime),
        r.map((x) => x.endTime),
        r.map((x) => x.correlationId),
      ],
    );
  }
  process.stdout.write(JSON.stringify({ adminId: admin.id, requests: r.length }) + '\n');
} finally {
  await handle.close();
}
