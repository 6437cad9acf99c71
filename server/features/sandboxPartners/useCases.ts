/**
 * Isolated sandbox partners (`POST /sandbox/partners`, `DELETE /sandbox/partners/{partnerId}`;
 * "Sandbox partners" in v2.yaml): a partner's CI makes one per test run, with its own key,
 * data, event feed and clock, so parallel runs on one sandbox never see each other; and
 * deletes it, with everything it owns, when the run ends.
 *
 * Any sandbox key may make one, and the new partner is never the caller's child: a child
 * would share the caller's clock, lists and webhook subscriptions, which is what a run must
 * not share. The cap (Config.sandboxPartnerLimit) is 409 `conflict`, as the active API key
 * limit is: a state the caller resolves by deleting, not by waiting (429 `Retry-After` would
 * promise a time when the request succeeds, which no one knows). Who may delete: the
 * partner's own key (its "reset"), and the key of the organization that made it (a CI's
 * long-lived key cleaning up after a run that crashed). An unused partner is deleted by the
 * background job after Config.sandboxPartnerIdleSeconds without a request of its keys, counted
 * in real time: a clock frozen in 2020 must not make it look idle.
 */
import type { components } from '../../../generated/types/ramp.ts';
import type { Services } from '../../services.ts';
import { parseDateTime } from '../../shared/dateTime.ts';
import { Problem, validationError } from '../../shared/problems.ts';
import { mintApiKey } from '../apiKeys/useCases.ts';
import { clocksRepository } from '../clock/repository.ts';
import { lastInstant, sandboxClockOf } from '../clock/useCases.ts';
import { insertPartner } from '../organizations/useCases.ts';
import type { Caller } from '../organizations/scope.ts';
import { sandboxPartnersRepository } from './repository.ts';

type Schemas = components['schemas'];
export type SandboxPartner = Schemas['SandboxPartner'];
type SandboxPartnerRequest = Schemas['SandboxPartnerRequest'];

/** The instant a new partner's clock starts frozen at, checked as an advance's `to` is; undefined: on real time. */
function startInstant(frozenAt: string | undefined): string | undefined {
  if (frozenAt === undefined) return undefined;
  const at = parseDateTime(frozenAt);
  if (!at) throw validationError([{ pointer: '/frozenAt', detail: 'must match format "date-time"' }]);
  if (at.getTime() > Date.parse(lastInstant)) throw validationError([{ pointer: '/frozenAt', detail: `is past the sandbox clock's last instant, ${lastInstant}` }]);
  return at.toISOString();
}

export async function makeSandboxPartner(services: Services, caller: Caller, request: SandboxPartnerRequest = {}): Promise<SandboxPartner> {
  const frozenAt = startInstant(request.frozenAt);
  const displayName = request.displayName ?? 'Sandbox partner';
  const real = services.realClock.now();
  const at = real.toISOString();
  // What the partner reads of itself (its createdAt, approvedAt) is on its own clock.
  const own = frozenAt ?? at;
  const { storage, config } = services;
  const { id, apiKey } = await storage.db.transaction().execute(async (tx) => {
    const made = sandboxPartnersRepository(tx, storage.engine);
    if ((await made.lockAndCount()) >= config.sandboxPartnerLimit) {
      throw new Problem('conflict', `The sandbox already holds ${config.sandboxPartnerLimit} partners made by POST /sandbox/partners; delete one before making another.`);
    }
    const organization = await insertPartner(tx, { displayName, at: own });
    const { key } = await mintApiKey(tx, organization, 'sand', new Date(own));
    await made.insert({ partner_id: organization.id, made_by: caller.organization.id, created_at: at, last_request_at: at });
    if (frozenAt !== undefined) {
      const clocks = clocksRepository(tx, storage.engine);
      await clocks.lock(organization.id, at);
      await clocks.save(organization.id, { frozenAt, offsetMs: 0 }, at);
    }
    return { id: organization.id, apiKey: key };
  });
  return { id, displayName, apiKey, createdAt: at, clock: await sandboxClockOf(services, id) };
}

/** Deletes a made partner with everything it owns, for its own key or its maker's (see above). */
export async function deleteSandboxPartner(services: Services, caller: Caller, partnerId: string): Promise<void> {
  const id = partnerId.toLowerCase();
  const { storage } = services;
  await storage.db.transaction().execute(async (tx) => {
    const made = sandboxPartnersRepository(tx, storage.engine);
    const row = await made.findForUpdate(id);
    if (!row && caller.organization.id === id) {
      throw new Problem('forbidden', `Partner ${id} was not made by POST /sandbox/partners; only those are deleted.`);
    }
    // Another partner's id is "not found" to anyone but it and its maker, so existence does not leak.
    if (!row || (caller.organization.id !== id && caller.organization.id !== row.made_by)) {
      throw new Problem('not-found', `Sandbox partner ${partnerId} was not found.`);
    }
    await made.deleteEverything(id);
  });
}

/**
 * Deletes the made partners whose keys made no request since `now` minus the idle time, each
 * in a transaction of its own that checks again under the partner's lock (a request may have
 * come meanwhile). Answers the ids deleted. `now` is real time.
 */
export async function expireIdlePartners(services: Services, now: Date, batch = 20): Promise<string[]> {
  const before = new Date(now.getTime() - services.config.sandboxPartnerIdleSeconds * 1000).toISOString();
  const { storage } = services;
  const deleted: string[] = [];
  for (const id of await sandboxPartnersRepository(storage.db).idleSince(before, batch)) {
    const gone = await storage.db.transaction().execute(async (tx) => {
      const made = sandboxPartnersRepository(tx, storage.engine);
      const row = await made.findForUpdate(id);
      if (!row || row.last_request_at >= before) return false;
      await made.deleteEverything(id);
      return true;
    });
    if (gone) deleted.push(id);
  }
  return deleted;
}
