/**
 * features/stateChange.ts on the real engine (SQLite, or PostgreSQL with DATABASE_URL): the one
 * lock → decide → write → record-events path of every state change. Each feature's tests show
 * its answers and events over HTTP; these show what all of them rely on: a refusal or a
 * failed write leaves neither the change nor its event, changes racing for one row each
 * decide on what the previous one wrote, and events are stamped on the partner's clock.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { organizationsRepository, type OrganizationRow } from '../../server/features/organizations/repository.ts';
import { changeState, type ChangeDeps, type StateChange } from '../../server/features/stateChange.ts';
import { fixedClock } from '../../server/features/clock/repository.ts';
import { Problem } from '../../server/shared/problems.ts';
import { openedTestStorage } from '../support/storage.ts';

const opened = openedTestStorage();
const partnerClockAt = new Date('2031-01-02T03:04:05.000Z');
const realNow = new Date('2026-11-24T00:00:00.000Z');
let deps: ChangeDeps;

beforeAll(async () => {
  deps = { storage: opened.storage, clock: fixedClock(partnerClockAt), realClock: fixedClock(realNow) };
});


async function newOrganization(): Promise<OrganizationRow> {
  return organizationsRepository(opened.storage.db).insert({ id: randomUUID(), parentId: null, type: 'business', displayName: '0', keySalt: 'salt', now: realNow.toISOString() });
}

const eventsOf = (organizationId: string) =>
  opened.storage.db.selectFrom('events').select(['type', 'occurred_at', 'payload']).where('organization_id', '=', organizationId).orderBy('position').execute();

/** A counter in the organization's display name: each change adds one and records kybUpdated. */
function increment(id: string, options: { refuse?: boolean; failAfterWrite?: boolean; laterMs?: number } = {}): StateChange<OrganizationRow, number> {
  return {
    lock: async (tx) => (await organizationsRepository(tx, opened.storage.engine).findForUpdate(id))!,
    decide: (row) => {
      if (options.refuse) throw new Problem('conflict', 'refused');
      return Number(row.display_name) + 1;
    },
    async write(tx, row, next) {
      await organizationsRepository(tx).update(row.id, { display_name: String(next) });
      if (options.failAfterWrite) throw new Problem('conflict', 'changed while this request ran');
      const after = { ...row, display_name: String(next) };
      const kyb = { status: 'notStarted' as const, approvedAt: null, updatedAt: realNow.toISOString() };
      return { row: after, events: [{ type: 'kybUpdated', organization: after, object: { kyb }, ...(options.laterMs ? { at: new Date(partnerClockAt.getTime() + options.laterMs) } : {}) }] };
    },
  };
}

const read = async (id: string) => (await organizationsRepository(opened.storage.db).find(id))!;

describe('changeState', () => {
  it('writes the change and records its events in one transaction, stamped on the partner clock (or later, when a step says so)', async () => {
    const organization = await newOrganization();
    expect((await changeState(deps, increment(organization.id))).display_name).toBe('1');
    await changeState(deps, increment(organization.id, { laterMs: 1 }));
    expect((await read(organization.id)).display_name).toBe('2');
    const events = await eventsOf(organization.id);
    expect(events.map((e) => [e.type, e.occurred_at])).toEqual([
      ['kybUpdated', partnerClockAt.toISOString()],
      ['kybUpdated', new Date(partnerClockAt.getTime() + 1).toISOString()],
    ]);
    expect(JSON.parse(events[0]!.payload)).toMatchObject({ event: 'kybUpdated', organizationId: organization.id, occurredAt: partnerClockAt.toISOString() });
  });

  it('leaves neither change nor event when the decision refuses or the write fails', async () => {
    const organization = await newOrganization();
    await expect(changeState(deps, increment(organization.id, { refuse: true }))).rejects.toMatchObject({ slug: 'conflict', detail: 'refused' });
    await expect(changeState(deps, increment(organization.id, { failAfterWrite: true }))).rejects.toMatchObject({ slug: 'conflict' });
    expect((await read(organization.id)).display_name).toBe('0');
    expect(await eventsOf(organization.id)).toEqual([]);
  });

  it('writes nothing and records nothing when there is nothing to do, or nothing to lock', async () => {
    const organization = await newOrganization();
    const unchanged = await changeState(deps, { ...increment(organization.id), decide: () => undefined });
    expect(unchanged.display_name).toBe('0');
    const gone = await changeState<OrganizationRow | undefined, number>(deps, {
      lock: (tx) => organizationsRepository(tx, opened.storage.engine).findForUpdate(randomUUID()),
      decide: () => 1,
      write: () => Promise.reject(new Error('nothing was locked, so nothing may be written')),
    });
    expect(gone).toBeUndefined();
    expect(await eventsOf(organization.id)).toEqual([]);
  });

  it('applies changes racing for one row one after the other, each deciding on what the previous wrote', async () => {
    const organization = await newOrganization();
    await Promise.all(Array.from({ length: 8 }, () => changeState(deps, increment(organization.id))));
    expect((await read(organization.id)).display_name).toBe('8');
    expect(await eventsOf(organization.id)).toHaveLength(8);
  });
});
