/**
 * The delivery worker (a Job, see server/jobs.ts). Each run claims the deliveries that are
 * due, POSTs each one's event signed with its subscription's secret, and records the
 * outcome of every attempt; the retry rules are in retry.ts.
 *
 * Claiming is one short transaction: due rows are locked with `FOR UPDATE SKIP LOCKED` on
 * PostgreSQL (SQLite has a single writer), the attempt is counted and recorded, and the
 * delivery is leased (`next_attempt_at` moves past the attempt's timeout), so two processes
 * never send the same attempt; a unique (delivery, number) index backs that up. The POST
 * happens after the commit, never inside a transaction nor a request. A process that stops
 * while sending leaves its lease to expire: the next run marks that attempt interrupted
 * and makes the next one, never more than 3 in all. All of it is in the database, so
 * pending deliveries resume after a restart.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { randomUUID } from 'node:crypto';
import type { Job } from '../jobs.ts';
import type { Services } from '../services.ts';
import { decide, maxAttempts, type AttemptOutcome } from './retry.ts';
import { signBody } from './signature.ts';
import { isPublicAddress } from './urls.ts';

/** Deliveries claimed per run; they are sent concurrently. */
const batchSize = 25;
/** How long past an attempt's timeout its lease lasts before another run may take over. */
const leaseMarginMs = 30_000;

export const deliveryJob: Job = { name: 'webhook-delivery', run: deliverDue };

interface Claimed {
  deliveryId: string;
  number: number;
  surface: 'v1' | 'v2';
  url: string;
  secret: string;
  payload: string;
}

export async function deliverDue(services: Services): Promise<void> {
  const claimed = await claimDue(services);
  if (claimed.length === 0) return;
  const { webhookCaFile } = services.config;
  const ca = webhookCaFile ? [...rootCertificates, readFileSync(webhookCaFile, 'utf8')] : undefined;
  await Promise.all(claimed.map((c) => attempt(services, c, ca)));
}

const addMs = (iso: string, ms: number) => new Date(new Date(iso).getTime() + ms).toISOString();

async function claimDue(services: Services): Promise<Claimed[]> {
  const { storage, config, clock } = services;
  const now = clock.now().toISOString();
  return storage.db.transaction().execute(async (tx) => {
    let query = tx
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .orderBy('next_attempt_at', 'asc')
      .limit(batchSize);
    if (storage.engine === 'postgres') query = query.forUpdate().skipLocked();
    const due = await query.execute();
    if (due.length === 0) return [];
    const ids = due.map((d) => d.id);
    // A due delivery with an unfinished attempt was leased by a process that stopped.
    await tx
      .updateTable('webhook_attempts')
      .set({ error: 'interrupted: the sending process stopped before an answer was recorded' })
      .where('delivery_id', 'in', ids)
      .where('finished_at', 'is', null)
      .where('error', 'is', null)
      .execute();
    const subscriptions = new Map(
      (await tx.selectFrom('webhook_subscriptions').select(['id', 'surface', 'url', 'secret']).where('id', 'in', [...new Set(due.map((d) => d.subscription_id))]).execute()).map((s) => [s.id, s]),
    );
    const events = new Map(
      (await tx.selectFrom('events').select(['id', 'payload']).where('id', 'in', [...new Set(due.map((d) => d.event_id))]).execute()).map((e) => [e.id, e]),
    );
    const claimed: Claimed[] = [];
    for (const delivery of due) {
      const subscription = subscriptions.get(delivery.subscription_id);
      const event = events.get(delivery.event_id);
      if (!subscription || !event || delivery.attempts >= maxAttempts) {
        // Out of attempts (the last one was interrupted) or nothing left to send: never later.
        await tx.updateTable('webhook_deliveries').set({ status: 'abandoned', next_attempt_at: null, updated_at: now }).where('id', '=', delivery.id).execute();
        continue;
      }
      const number = delivery.attempts + 1;
      await tx
        .updateTable('webhook_deliveries')
        .set({ attempts: number, next_attempt_at: addMs(now, config.webhookTimeoutMs + leaseMarginMs), updated_at: now })
        .where('id', '=', delivery.id)
        .execute();
      await tx
        .insertInto('webhook_attempts')
        .values({ id: randomUUID(), delivery_id: delivery.id, number, started_at: now, finished_at: null, status_code: null, error: null })
        .execute();
      claimed.push({ deliveryId: delivery.id, number, surface: subscription.surface, url: subscription.url, secret: subscription.secret, payload: event.payload });
    }
    return claimed;
  });
}

async function attempt(services: Services, claimed: Claimed, ca: string[] | undefined) {
  const { config, logger, clock, storage } = services;
  let outcome: AttemptOutcome;
  try {
    const { canonical, signature } = signBody(JSON.parse(claimed.payload), claimed.secret);
    outcome = await post(claimed.url, canonical, signature, { timeoutMs: config.webhookTimeoutMs, ca, publicOnly: config.env === 'production' });
  } catch (error) {
    outcome = { error: `not sent: ${(error as Error).message}` };
  }
  const finishedAt = clock.now().toISOString();
  const decision = decide(claimed.surface, claimed.number, outcome);
  await storage.db.transaction().execute(async (tx) => {
    let query = tx.selectFrom('webhook_deliveries').selectAll().where('id', '=', claimed.deliveryId);
    if (storage.engine === 'postgres') query = query.forUpdate();
    const delivery = await query.executeTakeFirst();
    await tx
      .updateTable('webhook_attempts')
      .set({ finished_at: finishedAt, status_code: 'statusCode' in outcome ? outcome.statusCode : null, error: 'error' in outcome ? outcome.error : null })
      .where('delivery_id', '=', claimed.deliveryId)
      .where('number', '=', claimed.number)
      .execute();
    // Deleted with its subscription, or taken over after the lease ran out: not ours to move.
    if (!delivery || delivery.status !== 'pending' || delivery.attempts !== claimed.number) return;
    await tx
      .updateTable('webhook_deliveries')
      .set({
        status: decision === 'retry' ? 'pending' : decision,
        next_attempt_at: decision === 'retry' ? addMs(finishedAt, config.webhookRetryDelayMs) : null,
        updated_at: finishedAt,
      })
      .where('id', '=', claimed.deliveryId)
      .execute();
  });
  logger.info({ delivery: claimed.deliveryId, attempt: claimed.number, ...outcome, decision }, 'webhook attempt');
}

/** Resolves names to public addresses only (production), so DNS cannot point a delivery inward. */
const publicLookup = ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error);
    const allowed = addresses.filter((a) => isPublicAddress(a.address));
    if (allowed.length === 0) return callback(Object.assign(new Error(`address not allowed: ${hostname} resolves to no public address`), { code: 'EADDRNOTALLOWED' }));
    if (options.all) return callback(null, allowed);
    return callback(null, allowed[0]!.address, allowed[0]!.family);
  });
}) as unknown as LookupFunction;

/** One POST; resolves with the answer's status or why none came (never rejects). */
export function post(
  url: string,
  body: string,
  signature: string,
  options: { timeoutMs: number; ca?: string[] | undefined; publicOnly: boolean },
): Promise<AttemptOutcome> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve({ error: 'not sent: the URL is not valid' });
    }
    const host = target.hostname.replace(/^\[|\]$/g, '');
    if (options.publicOnly && (target.protocol !== 'https:' || (isIP(host) && !isPublicAddress(host)))) {
      return resolve({ error: `address not allowed: production delivers to https on public addresses only` });
    }
    let settled = false;
    const done = (outcome: AttemptOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const signal = AbortSignal.timeout(options.timeoutMs);
    const client = target.protocol === 'https:' ? https : http;
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          'X-Signature': signature,
          'User-Agent': 'ramp-webhooks/1.0',
        },
        agent: false,
        signal,
        ...(options.publicOnly ? { lookup: publicLookup } : {}),
        ...(options.ca && target.protocol === 'https:' ? { ca: options.ca } : {}),
      },
      (response) => {
        response.on('error', () => {});
        response.resume();
        const status = response.statusCode ?? 0;
        done(status >= 100 && status <= 599 ? { statusCode: status } : { error: `invalid HTTP status ${status}` });
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      done(signal.aborted ? { error: `timeout after ${options.timeoutMs} ms` } : { error: `connection error: ${error.message}` });
    });
    request.end(body);
  });
}
