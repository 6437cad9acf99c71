/** The organizations repository on the real engine (SQLite, or PostgreSQL with DATABASE_URL). */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { organizationsRepository, type NewOrganization } from '../../../server/features/organizations/repository.ts';
import { explain, usesIndex } from '../../support/plans.ts';
import { openedTestStorage } from '../../support/storage.ts';

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();
const org = (o: Partial<NewOrganization> & { now: string }): NewOrganization => ({
  id: randomUUID(), parentId: null, type: 'personal', displayName: 'Org', keySalt: 'salt', ...o,
});

describe('organizations repository', () => {
  const opened = openedTestStorage();
  const partner = randomUUID();
  const children: string[] = [];
  beforeAll(async () => {
    const repo = organizationsRepository(opened.storage.db);
    await repo.insert(org({ id: partner, type: 'business', now: at(0) }));
    for (let minute = 1; minute <= 5; minute++) {
      const child = await repo.insert(org({ parentId: partner, now: at(minute), displayName: `Child ${minute}` }));
      children.push(child.id);
    }
    // A grandchild and another partner's child must never show in the partner's pages.
    await repo.insert(org({ parentId: children[0]!, now: at(3) }));
    const other = await repo.insert(org({ type: 'business', now: at(0) }));
    await repo.insert(org({ parentId: other.id, now: at(2) }));
  });

  it('inserts and finds, with the defaults of a new organization', async () => {
    const found = await organizationsRepository(opened.storage.db).find(children[0]!);
    expect(found).toEqual({
      id: children[0], parent_id: partner, type: 'personal', display_name: 'Child 1', key_salt: 'salt',
      kyb_status: 'notStarted', kyb_approved_at: null, kyc_status: 'notStarted', created_at: at(1), updated_at: at(1), child_position: 1,
      // The partner whose sandbox clock it follows (migration 140).
      top_id: partner,
    });
    expect(await organizationsRepository(opened.storage.db).find(randomUUID())).toBeUndefined();
  });

  it('insertIfAbsent refuses a taken id, also when two race for it', async () => {
    const repo = organizationsRepository(opened.storage.db);
    expect(await repo.insertIfAbsent(org({ id: partner, now: at(9) }))).toBeUndefined();
    expect((await repo.find(partner))?.type).toBe('business');
    const id = randomUUID();
    // Under a partner of their own: the losers give their list positions back.
    const parent = (await repo.insert(org({ type: 'business', now: at(0) }))).id;
    const results = await Promise.all([1, 2, 3, 4].map((n) => repo.insertIfAbsent(org({ id, parentId: parent, now: at(50), displayName: `Racer ${n}` }))));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await repo.find(id))?.child_position).toBe(1);
    expect((await repo.childrenPage(parent, { size: 10, number: 0 })).total).toBe(1);
  });

  it('pages a partner\'s direct children newest or oldest first, with counts', async () => {
    const repo = organizationsRepository(opened.storage.db);
    const newest = await repo.childrenPage(partner, { size: 2, number: 0 });
    expect(newest.total).toBe(5);
    expect(newest.items.map((o) => o.id)).toEqual([children[4], children[3]]);
    const oldest = await repo.childrenPage(partner, { size: 2, number: 2 }, undefined, 'asc');
    expect(oldest.items.map((o) => o.id)).toEqual([children[4]]);
    const past = await repo.childrenPage(partner, { size: 2, number: 3 }, undefined, 'asc');
    expect(past).toEqual({ items: [], total: 5 });
  });

  it('filters on creation time: after from, up to and including to', async () => {
    const repo = organizationsRepository(opened.storage.db);
    const page = { size: 10, number: 0 };
    expect((await repo.childrenPage(partner, page, { from: at(2) }, 'asc')).items.map((o) => o.id)).toEqual(children.slice(2));
    expect((await repo.childrenPage(partner, page, { from: at(1), to: at(4) }, 'asc')).items.map((o) => o.id)).toEqual(children.slice(1, 4));
    expect((await repo.childrenPage(partner, page, { to: at(1) }, 'asc')).total).toBe(1);
  });

  it('renames and updates', async () => {
    const repo = organizationsRepository(opened.storage.db);
    await repo.rename(children[1]!, 'Renamed', at(30));
    expect(await repo.find(children[1]!)).toMatchObject({ display_name: 'Renamed', updated_at: at(30), created_at: at(2) });
  });

  it('finds date bounds on the (parent_id, created_at, child_position) index, in either order', async () => {
    for (const order of ['asc', 'desc'] as const) {
      const query = opened.storage.db.selectFrom('organizations').select('child_position').where('parent_id', '=', partner).where('created_at', '>', at(1))
        .orderBy('created_at', order).orderBy('child_position', order).limit(1);
      const plan = await explain(opened.storage, query);
      expect(usesIndex(plan, 'organizations_child_position_created'), plan).toBe(true);
    }
  });
});
