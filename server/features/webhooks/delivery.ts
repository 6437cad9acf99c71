/**
 * The delivery worker (a Job, see server/jobs.ts). A run claims the deliveries that are due
 * in batches, POSTs each one's event signed with its subscription's secret, a bounded number
 * at once, and records how the attempts ended, several per statement; the retry rules are
 * in retry.ts. A run keeps claiming while batches come back full and while attempts are in
 * flight (so a slow receiver does not hold up the others), then ends.
 *
 * Claiming is one short transaction: due rows are locked with `FOR UPDATE SKIP LOCKED` on
 * PostgreSQL (SQLite has a single writer), each attempt is counted and recorded, and the
 * delivery is leased (`next_attempt_at` moves past the attempt's timeout), so two processes
 * never send the same attempt; a unique (delivery, number) index backs that up. The POST
 * happens after the commit, never inside a transaction nor a request. A process that stops
 * while sending leaves its lease to expire: the next run marks that attempt interrupted
 * and makes the next one, never more than 3 in all. All of it is in the database, so
 * pending deliveries resume after a restart.
 *
 * When to look: every `webhookPollMs` with one indexed query, and at once when a commit
 * recorded deliveries (outbox.ts: NOTIFY on PostgreSQL, which also wakes the other
 * processes; an in-process signal on SQLite). Without `webhookPollMs` the job runs with the
 * others, every `jobIntervalMs`.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { rootCertificates } from 'node:tls';
import type { Job } from '../../services.ts';
import { connection } from '../../shared/outbound.ts';
import type { Services } from '../../services.ts';
import { listen } from '../../storage/notifications.ts';
import { inTransaction } from '../../storage/positions.ts';
import { deliveriesRepository, type ClaimedAttempt, type FinishedAttempt } from './deliveriesRepository.ts';
import { deliveriesChannel, onDeliveriesRecorded } from './outbox.ts';
import { decide, maxAttempts, type AttemptOutcome } from './retry.ts';
import { signCanonical } from './signature.ts';

/** Deliveries claimed per transaction at most. */
const batchSize = 100;
/** How long finished attempts wait to be recorded together. */
const recordWindowMs = 2;
/** How much of a receiver's answer an attempt keeps (WebhookAttemptDetail.responseExcerpt). */
export const responseExcerptBytes = 512;
/** How long past an attempt's timeout its lease lasts before another run may take over. */
const leaseMarginMs = 30_000;

export const deliveryJob: Job = {
  name: 'webhook-delivery',
  run: deliverDue,
  intervalMs: (services) => services.config.webhookPollMs,
  wakeOn(services, wake) {
    if (services.config.webhookPollMs === undefined) return undefined;
    if (services.storage.engine === 'postgres' && services.config.databaseUrl) {
      // While it is down the poll finds what is due; an outage is logged once by storage, not on every reconnection.
      return listen(services.config.databaseUrl, deliveriesChannel, wake, (error) => {
        if (!services.storage.health.failed(error)) services.logger.warn({ err: error }, 'webhook wake-up connection lost; polling until it is back');
      });
    }
    const unsubscribe = onDeliveriesRecorded(wake);
    return async () => unsubscribe();
  },
};

/**
 * Claims and sends until nothing more is due and nothing is in flight (or the jobs stop:
 * then it only finishes what it sent).
 */
export async function deliverDue(services: Services, stopping?: AbortSignal): Promise<void> {
  // Deliveries, their attempts and the retry spacing follow real time, never a partner's
  // sandbox clock (README "Sandbox clock"): they test the partner's real receiver.
  const { config, storage, realClock: clock } = services;
  const { webhookCaFile } = config;
  const ca = webhookCaFile ? [...rootCertificates, readFileSync(webhookCaFile, 'utf8')] : undefined;
  const concurrency = config.webhookConcurrency;
  const pollMs = config.webhookPollMs ?? config.jobIntervalMs;
  const record = recorder(services);
  const inFlight = new Set<Promise<void>>();
  let slotFreed = deferred();
  // Something may be due right now (the last claim came back full). The poll asks the cheap
  // indexed question first and opens no transaction when nothing is due.
  let more = await deliveriesRepository(storage.db).anyDue(clock.now().toISOString());
  for (;;) {
    const room = concurrency - inFlight.size;
    // Claim again once a quarter of the slots are free: batches, not one claim per answer.
    if (more && !stopping?.aborted && (inFlight.size === 0 || room >= Math.max(1, concurrency / 4))) {
      const limit = Math.min(batchSize, room);
      const now = clock.now().toISOString();
      const leaseUntil = new Date(clock.now().getTime() + config.webhookTimeoutMs + leaseMarginMs).toISOString();
      const claimed = await inTransaction(storage.db, (tx) => deliveriesRepository(tx).claimDue({ now, limit, leaseUntil, engine: storage.engine, maxAttempts }));
      more = claimed.length === limit;
      for (const c of claimed) {
        const sent: Promise<void> = attempt(services, c, ca, record).finally(() => {
          inFlight.delete(sent);
          slotFreed.resolve();
        });
        inFlight.add(sent);
      }
      if (claimed.length > 0) continue;
    }
    if (inFlight.size === 0) return;
    if (more && !stopping?.aborted) {
      await slotFreed.promise;
    } else {
      // Nothing more was due: look again at the next poll, not only once the slowest answer came.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([slotFreed.promise, new Promise((resolve) => (timer = setTimeout(resolve, pollMs)))]);
      clearTimeout(timer);
      if (!stopping?.aborted) more = await deliveriesRepository(storage.db).anyDue(clock.now().toISOString());
    }
    slotFreed = deferred();
  }
}

/** How an attempt ended, as the recorder takes it (the retry's due time is set when it is written). */
export type Ended = Omit<FinishedAttempt, 'nextAttemptAt'>;

async function attempt(services: Services, claimed: ClaimedAttempt, ca: string[] | undefined, record: (ended: Ended) => Promise<void>) {
  const { config, logger, realClock: clock } = services;
  let outcome: AttemptOutcome;
  try {
    // The event is stored canonical (outbox.ts): its bytes are the body; one HMAC per delivery.
    outcome = await post(claimed.url, claimed.payload, signCanonical(claimed.payload, claimed.secret), { timeoutMs: config.webhookTimeoutMs, ca, httpsOnly: config.env === 'production', publicOnly: config.outboundPublicOnly });
  } catch (error) {
    outcome = { error: `not sent: ${(error as Error).message}` };
  }
  const decision = decide(claimed.surface, claimed.number, outcome);
  await record({
    attemptId: claimed.attemptId,
    deliveryId: claimed.deliveryId,
    number: claimed.number,
    finishedAt: clock.now().toISOString(),
    statusCode: 'statusCode' in outcome ? outcome.statusCode : null,
    error: 'error' in outcome ? outcome.error : null,
    responseExcerpt: 'responseExcerpt' in outcome ? (outcome.responseExcerpt ?? null) : null,
    status: decision === 'retry' ? 'pending' : decision,
  });
  logger.info({ delivery: claimed.deliveryId, attempt: claimed.number, statusCode: 'statusCode' in outcome ? outcome.statusCode : undefined, error: 'error' in outcome ? outcome.error : undefined, decision }, 'webhook attempt');
}

/**
 * Records finished attempts in batches: those that end while one batch is being written go
 * in the next. Each caller's promise settles once its attempt is written (or given up).
 * A batch holds attempts of every partner that ended in the same instant, so a batch the
 * database refuses is written again one attempt at a time: an attempt that cannot be stored
 * loses only itself, never the others (what the receivers sent is made storable by the
 * repository first: shared/storableText.ts).
 */
export function recorder(services: Services): (ended: Ended) => Promise<void> {
  const { storage, realClock: clock, logger } = services;
  let queue: { ended: Ended; done: () => void }[] = [];
  let writing: Promise<void> | undefined;
  const finish = (rows: FinishedAttempt[], now: string) => inTransaction(storage.db, (tx) => deliveriesRepository(tx).finishAttempts(rows, now, storage.engine));
  const write = async () => {
    // Let the answers that arrive meanwhile join this batch: a write costs about as much for
    // one attempt as for thirty, and draining a backlog went from ~1,900 to ~2,400 a second.
    await new Promise((resolve) => setTimeout(resolve, recordWindowMs));
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      // A retry is due a full delay after the write, so never sooner than after the answer.
      const now = clock.now();
      const retryAt = new Date(now.getTime() + services.config.webhookRetryDelayMs).toISOString();
      const rows = batch.map(({ ended }) => ({ ...ended, nextAttemptAt: ended.status === 'pending' ? retryAt : null }));
      const at = now.toISOString();
      await finish(rows, at).catch(async (error: unknown) => {
        // In an outage no attempt can be written (storage tells it once); the attempts stay
        // unfinished and are made again after their leases.
        if (storage.health.failed(error)) return;
        if (rows.length === 1) return logAttemptNotRecorded(services, rows[0]!, error);
        logger.warn({ err: error, attempts: rows.length }, 'webhook attempts not recorded together; recording them one by one');
        for (const row of rows) await finish([row], at).catch((alone: unknown) => logAttemptNotRecorded(services, row, alone));
      });
      for (const { done } of batch) done();
    }
    writing = undefined;
  };
  return (ended: Ended) =>
    new Promise<void>((done) => {
      queue.push({ ended, done });
      writing ??= write();
    });
}

/** The attempt stays unfinished: once its lease runs out it counts as interrupted, and the next attempt is made. */
function logAttemptNotRecorded(services: Services, row: FinishedAttempt, error: unknown) {
  if (services.storage.health.failed(error)) return;
  services.logger.error({ err: error, delivery: row.deliveryId, attempt: row.number }, 'webhook attempt not recorded');
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

type PostOptions = { timeoutMs: number; ca?: string[] | undefined; httpsOnly: boolean; publicOnly: boolean };

/** One POST; resolves with the answer's status or why none came (never rejects). */
export function post(url: string, body: string, signature: string, options: PostOptions): Promise<AttemptOutcome> {
  return new Promise((resolve) => {
    const reached = reach(url, options);
    if ('error' in reached) return resolve(reached);
    const { target, agent } = reached;
    let settled = false;
    const done = (outcome: AttemptOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    // A plain timer: an AbortSignal per request costs more than the rest of the request.
    let timedOut = false;
    // Set once the status came: a body still streaming at the timeout keeps that status.
    let answered: (() => void) | undefined;
    const timer = setTimeout(() => {
      answered?.();
      timedOut = true;
      request.destroy();
    }, options.timeoutMs);
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
        // Idle sockets close after 4 s (sooner when the receiver's Keep-Alive header says so).
        agent,
        ...(options.ca && target.protocol === 'https:' ? { ca: options.ca } : {}),
      },
      (response) => {
        answered = readAnswer(response, timer, done);
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      done(timedOut ? { error: `timeout after ${options.timeoutMs} ms` } : { error: `connection error: ${error.message}` });
    });
    request.end(body);
  });
}

/** Where a POST goes and through which agent, or why it is not sent there. */
function reach(url: string, options: PostOptions): { target: URL; agent: http.Agent } | { error: string } {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { error: 'not sent: the URL is not valid' };
  }
  // Production: https (refused at subscription already; this covers rows older than a
  // rule). Production and a shared sandbox: public addresses only, literal or resolved
  // (server/shared/outbound.ts).
  if (options.httpsOnly && target.protocol !== 'https:') return { error: 'address not allowed: production delivers over https only' };
  try {
    return { target, agent: connection(target, { publicOnly: options.publicOnly }).agent };
  } catch (error) {
    // AddressNotAllowed: a literal address that is not public.
    return { error: (error as Error).message };
  }
}

/**
 * Reads the receiver's answer into the attempt's outcome. Returns what ends the attempt with
 * the status received, which the timeout calls, or undefined when the status is invalid (the
 * attempt has ended already).
 */
function readAnswer(response: http.IncomingMessage, timer: NodeJS.Timeout, done: (outcome: AttemptOutcome) => void): (() => void) | undefined {
  const status = response.statusCode ?? 0;
  if (status < 100 || status > 599) {
    response.resume();
    done({ error: `invalid HTTP status ${status}` });
    return undefined;
  }
  // The first bytes of the answer are kept for the sandbox console (what the receiver
  // said); the rest is read and dropped. The attempt ends when the answer does, or at
  // the first byte past the excerpt, so a body that never ends costs no attempt time.
  const kept: Buffer[] = [];
  let length = 0;
  const finish = () => done({ statusCode: status, responseExcerpt: Buffer.concat(kept).subarray(0, responseExcerptBytes).toString('utf8') });
  response.on('data', (chunk: Buffer) => {
    if (length < responseExcerptBytes) kept.push(chunk);
    length += chunk.length;
    if (length > responseExcerptBytes) finish();
  });
  response.on('end', finish);
  // Until the whole answer is read the timeout still applies (a body that never ends).
  response.on('close', () => {
    clearTimeout(timer);
    finish();
  });
  response.on('error', () => finish());
  return finish;
}
