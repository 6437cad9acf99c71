/**
 * Crash and restart: the server process is killed with SIGKILL in the middle of a stream of
 * writes and webhook deliveries, then started again on the same database (the SQLite file,
 * or the PostgreSQL database when DATABASE_URL is set). Every write the old process
 * acknowledged is there, no transition is half-applied (a status without its event, or an
 * event without its status), and every pending delivery resumes until it is acknowledged.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventIdOf, eventually, startReceiver, type Receiver } from '../support/webhooks.ts';
import { newSeedKey, startServerProcess, type ServerProcess } from '../support/process.ts';
import { testDatabase, type TestDatabase } from '../support/storage.ts';
import { waitBudget, testBudget } from '../support/wait.ts';

let database: TestDatabase;
let receiver: Receiver;
const processes: ServerProcess[] = [];
/** eventIds the receiver acknowledged (it refuses each event's first attempt, so every one is retried). */
const acknowledged = new Set<string>();
const seen = new Set<string>();

beforeAll(async () => {
  database = await testDatabase();
  receiver = await startReceiver((_path, _count, request) => {
    const eventId = eventIdOf(request);
    if (!eventId) return 400;
    if (!seen.has(eventId)) {
      seen.add(eventId);
      return 503;
    }
    acknowledged.add(eventId);
    return 200;
  });
});
afterAll(async () => {
  for (const p of processes) await p.stop();
  await receiver?.close();
  await database?.drop();
});

it('keeps every acknowledged write and resumes every pending delivery after a SIGKILL', async () => {
  const key = newSeedKey();
  const env = { ...database.env, RAMP_SEED_API_KEY: key, RAMP_WEBHOOK_RETRY_DELAY_MS: '300', RAMP_WEBHOOK_TIMEOUT_MS: '2000' };
  const first = await startServerProcess(env);
  processes.push(first);
  const call = async (server: ServerProcess, method: string, path: string, body?: unknown) => {
    const response = await fetch(server.url + path, {
      method,
      headers: { Authorization: key, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, json: (await response.json().catch(() => undefined)) as any };
  };
  for (const eventType of ['kycUpdated', 'kybUpdated']) {
    const subscribed = await call(first, 'POST', '/webhook_subscription', { url: `${receiver.url}/hooks`, eventType });
    expect(subscribed.status).toBe(201);
  }

  // Four writers, each: create a customer, then move its verification (an event, so a delivery).
  const created: { id: string; type: 'personal' | 'business' }[] = [];
  const approved: string[] = [];
  let stop = false;
  const writer = async (n: number) => {
    for (let i = 0; !stop; i++) {
      try {
        const type = (n + i) % 2 ? 'personal' : 'business';
        const made = await call(first, 'POST', '/ramp/organization', { displayName: `Crash ${n}-${i}`, type });
        if (made.status !== 201) throw new Error(`create: ${made.status}`);
        created.push({ id: made.json.organizationId, type });
        const moved = await call(first, 'POST', `/sandbox/organization/${made.json.organizationId}/${type === 'personal' ? 'kyc' : 'kyb'}`, { status: 'approved' });
        if (moved.status !== 200) throw new Error(`approve: ${moved.status}`);
        approved.push(made.json.organizationId);
      } catch {
        return; // the process is gone: this write was not acknowledged
      }
    }
  };
  const writers = [0, 1, 2, 3].map(writer);
  await eventually(() => approved.length >= 24 && seen.size >= 6, waitBudget, 'writes and deliveries under way');
  await first.kill();
  stop = true;
  await Promise.all(writers);
  const ackCreated = [...created];
  const ackApproved = [...approved];

  const second = await startServerProcess(env);
  processes.push(second);
  // Every acknowledged write is there.
  for (const { id } of ackCreated) expect((await call(second, 'GET', `/organization/${id}`)).status, id).toBe(200);
  for (const { id, type } of ackCreated.filter((c) => ackApproved.includes(c.id))) {
    const read = await call(second, 'GET', `/organization/${id}/${type === 'personal' ? 'kyc' : 'kyb'}`);
    expect(read.json?.status, id).toBe('approved');
  }

  // No half-applied transition: an approved verification has its event, and an event its status.
  const storage = await database.open();
  try {
    const db = storage.db;
    const organizations = await db.selectFrom('organizations').select(['id', 'type', 'kyc_status', 'kyb_status']).where('parent_id', '=', key.split(':')[2]!).execute();
    const events = await db.selectFrom('events').select(['id', 'type', 'organization_id', 'payload']).where('surface', '=', 'v2').execute();
    const approvedByEvent = new Set(events.filter((e) => JSON.parse(e.payload)[e.type === 'kycUpdated' ? 'kyc' : 'kyb']?.status === 'approved').map((e) => e.organization_id));
    const approvedByStatus = new Set(organizations.filter((o) => (o.type === 'personal' ? o.kyc_status : o.kyb_status) === 'approved').map((o) => o.id));
    expect([...approvedByStatus].sort()).toEqual([...approvedByEvent].sort());
    expect(approvedByStatus.size).toBeGreaterThanOrEqual(ackApproved.length);

    // Every delivery resumes: each event reaches the receiver and is acknowledged, once done nothing is pending.
    const eventIds = events.map((e) => e.id);
    const deliveries = await db.selectFrom('webhook_deliveries').select(['event_id']).execute();
    expect(new Set(deliveries.map((d) => d.event_id))).toEqual(new Set(eventIds));
    await eventually(() => eventIds.every((id) => acknowledged.has(id)), waitBudget, 'every event acknowledged by the receiver');
    await eventually(async () => {
      const open = await db.selectFrom('webhook_deliveries').select(['status']).where('status', '!=', 'delivered').execute();
      return open.length === 0;
    }, waitBudget, 'every delivery marked delivered');
  } finally {
    await storage.close();
  }
}, 2 * testBudget);
