/**
 * No partner's sandbox clock can hurt another partner (issue 31, items 6 and 7): the clock
 * goes no further than its documented last instant, the timer jobs go on with every other
 * partner when one partner's clock or change fails, and a large advance lets other requests
 * through while it runs, answering with its counts, the first changes and where the rest are.
 * On SQLite, and on PostgreSQL with DATABASE_URL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onrampQuote } from '../../../bench/scenarios.ts';
import { seedOrders, type Database } from '../../../bench/seed.ts';
import { clocksRepository } from '../../../server/features/clock/repository.ts';
import { applyDueNow } from '../../../server/features/clock/timers.ts';
import type { DueItem, Timer } from '../../../server/services.ts';
import { lastInstant, maxListed } from '../../../server/features/clock/useCases.ts';
import type { Schema } from '../../../client/index.ts';
import { expectStatus } from '../../support/api.ts';
import { expectProblem } from '../../support/errors.ts';
import { createCustomer, customerClabe, manualClock, order, otherPartner, sandboxClock } from '../../support/fixtures.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { eventually } from '../../support/wait.ts';

const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

describe('the clock\'s last instant, and timer jobs that survive one partner\'s failure', () => {
  const real = manualClock({ distinctReadings: true });
  let server: TestServer;
  beforeAll(async () => {
    // Jobs run when the test ticks them.
    server = await startTestServer({ clock: real, env: { RAMP_JOB_INTERVAL_MS: '600000' } });
  });
  afterAll(() => server?.close());

  /** Puts a partner's clock where the API would take thousands of advances to bring it. */
  async function setClock(partnerId: string, state: { frozenAt: string | null; offsetMs: number }) {
    const clocks = clocksRepository(server.services.storage.db, server.services.storage.engine);
    const now = real.now().toISOString();
    await clocks.lock(partnerId, now);
    await clocks.save(partnerId, state, now);
  }

  it('advances to 9000-01-01T00:00:00.000Z and no further: past it is 409 conflict, by or to, and nothing moves', async () => {
    const { key, partnerId } = await otherPartner(server);
    const clock = sandboxClock(server.as(key));
    await setClock(partnerId, { frozenAt: plus(lastInstant, -86_400_000), offsetMs: 0 });
    expect(lastInstant).toBe('9000-01-01T00:00:00.000Z');
    const advance = (body: Schema<'AdvanceSandboxClockRequest'>) => server.as(key).POST('/sandbox/clock/advance', { body });
    const past = expectProblem(await advance({ by: 'P2D' }), 409, 'conflict');
    expect(past.detail).toBe(`The sandbox clock goes no further than ${lastInstant}; it cannot be advanced to ${plus(lastInstant, 86_400_000)}.`);
    expectProblem(await advance({ to: plus(lastInstant, 1) }), 409, 'conflict');
    expect((await clock.read()).now).toBe(plus(lastInstant, -86_400_000));
    expect((await clock.advance({ to: lastInstant })).clock.now).toBe(lastInstant);
    expectProblem(await advance({ by: 'PT0.001S' }), 409, 'conflict');
    expect((await clock.advance({ by: 'PT0S' })).clock.now).toBe(lastInstant);
    expect((await clock.read()).now).toBe(lastInstant);
  });

  it('a partner whose clock fails the timer job does not stop another partner\'s timers, and is logged', async () => {
    // Past any instant a Date holds (what repeated advances reached before the last instant):
    // reading this partner's time throws in the job, before the other partner's turn.
    const broken = await otherPartner(server);
    await setClock(broken.partnerId, { frozenAt: null, offsetMs: 8.64e15 });
    const healthy = await otherPartner(server);
    const api = server.as(healthy.key);
    await sandboxClock(api).advance({ by: 'P1D' });
    const customer = await createCustomer(server, { approved: true, key: healthy.key });
    const account = expectStatus(await api.POST('/organization/{organizationId}/payment_account', {
      params: { path: { organizationId: customer } },
      body: { kind: 'bankAccount', rail: 'spei', accountDetails: { clabe: customerClabe() }, registrationInfo: { accountHolderName: 'María Gómez', taxId: 'GOMM900101AB3' } },
    }), 201);
    const status = async () => expectStatus(await api.GET('/organization/{organizationId}/payment_account/{id}', { params: { path: { organizationId: customer, id: account.id } } }), 200).status;
    expect(await status()).toBe('pending');
    real.advance(1500);
    await server.jobs.tick();
    expect(await status()).toBe('ready');
    const failures = server.logs.filter((line) => line.includes('sandbox timer failed') && line.includes(broken.partnerId));
    expect(failures.length).toBeGreaterThan(0);
  });

  it('a change that fails is logged and passed over: the job applies the next one', async () => {
    const at = real.now().toISOString();
    const items: DueItem[] = ['failing', 'next'].map((id) => ({ kind: 'paymentAccountReady', id, organizationId: server.partnerId, dueAt: at }));
    const applied: string[] = [];
    const timer: Timer = {
      job: 'testTimer',
      due: async (_db, scope) => (scope === 'onRealTime' ? items : []),
      async apply(_services, item) {
        if (item.id === 'failing') throw new Error('this change cannot be applied');
        applied.push(item.id);
        return true;
      },
    };
    await applyDueNow(server.services, timer);
    expect(applied).toEqual(['next']);
    expect(server.logs.some((line) => line.includes('sandbox timer failed') && line.includes('"failing"'))).toBe(true);
  });
});

describe('a large advance', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'clock-isolation-'));
  const deadlines = 5 * maxListed + 1;
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { RAMP_DATA_DIR: dataDir } });
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('lets another partner\'s read through while it runs, and answers its counts, the first changes and where the rest are', async () => {
    // The partner's orders: one made through the API, its deadline an hour away, and copies of it a year away (bench/seed.ts).
    const template = await order(server, server.partnerId, onrampQuote as never);
    const { databaseUrl } = server.services.config;
    const database: Database = databaseUrl ? { engine: 'postgres', url: databaseUrl } : { engine: 'sqlite', dataDir };
    await seedOrders(database, { partnerId: server.partnerId, templateOrderId: template.id, customers: 2, total: deadlines });
    const other = server.as((await otherPartner(server)).key);
    await sandboxClock(server.api).set({ frozen: true });

    let answered = false;
    const advancing = sandboxClock(server.api).advance({ by: 'P366D' }).finally(() => {
      answered = true;
    });
    const canceled = async () => {
      const row = await server.services.storage.db.selectFrom('orders').select((eb) => eb.fn.countAll<number | string>().as('n')).where('status', '=', 'canceled').executeTakeFirstOrThrow();
      return Number(row.n);
    };
    // The advance has begun applying; another partner's read is answered before it ends.
    await eventually(async () => (await canceled()) > 0, undefined, 'the advance\'s first change');
    expectStatus(await other.GET('/orders', { params: { query: { pageSize: 30 } } }), 200);
    expect(answered, 'the advance answered before another partner\'s read').toBe(false);

    const answer = await advancing;
    expect(await canceled()).toBe(deadlines);
    expect(answer.counts.orderFundingExpired).toBe(deadlines);
    expect(answer.transitions).toHaveLength(maxListed);
    expect(answer.unlistedTransitions).toBe(deadlines - maxListed);
    expect(answer.transitions[0]).toMatchObject({ kind: 'orderFundingExpired', id: template.id, dueAt: template.fundingInstructions?.expiresAt });
    // The rest are in the event feed after eventsAfter, in the order they were applied, the listed ones first.
    const feed: string[] = [];
    for (let after = answer.eventsAfter; ; ) {
      const page = expectStatus(await server.api.GET('/sandbox/events', { params: { query: { after, pageSize: 100 } } }), 200);
      if (page.items.length === 0) break;
      for (const item of page.items) if (item.eventType === 'orderUpdated') feed.push(item.subjectId);
      after = page.nextCursor;
    }
    expect(feed).toHaveLength(deadlines);
    expect(feed.slice(0, maxListed)).toEqual(answer.transitions.map((t) => t.id));
  });
});
