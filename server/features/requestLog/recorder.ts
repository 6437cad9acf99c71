/**
 * Records the API requests of partners' keys in the request log (listSandboxRequests) once
 * their answers are sent (http/requestLog.ts hands each one over): redacted, cut, and
 * written in batches a moment later, so recording never delays or fails an answer and costs
 * a request one row of a shared transaction. A batch that cannot be stored is logged and
 * dropped: a log is not worth a failed request. Each write also drops what its partners
 * keep no longer (repository.ts), so the log stays bounded without a job of its own.
 *
 * The batch waits in memory for a fraction of a second: an entry is readable shortly after
 * its answer, by every process, and a process that stops loses at most that fraction.
 */
import type { Services } from '../../services.ts';
import { authenticate } from '../apiKeys/authenticate.ts';
import { displayedPrefixLength } from '../apiKeys/rules.ts';
import { timeOf } from '../clock/repository.ts';
import type { Caller } from '../organizations/scope.ts';
import { topOf } from '../organizations/repository.ts';
import { requestLogRepository, type RequestLogRow } from './repository.ts';
import { actedFor, entryId, isRead, isRecorded, keptAnswer, keptBody, postedReads, requestLogLimits, surfaceOfPath, touchedObjects } from './rules.ts';

/** A request whose answer was sent, as the HTTP side saw it. */
export interface FinishedRequest {
  /** Set when the API key was checked (the contract's validation did it). */
  caller: Caller | undefined;
  authorization: string | undefined;
  method: string;
  /** Path and query as sent. */
  url: string;
  operationId: string | undefined;
  params: Record<string, unknown>;
  /** The body as parsed (JSON or form), if any. */
  body: unknown;
  status: number;
  durationMs: number;
  /** Real time. */
  receivedAt: Date;
  /** The answer's bytes as written, up to rules.ts `captureBytes` or a chunk more. */
  answer: (string | Buffer)[];
}

/** How long a batch waits for more entries. */
const batchMs = 50;

export interface RequestRecorder {
  record(request: FinishedRequest): void;
  /** Writes what waits now (tests; a stopping process). */
  flush(): Promise<void>;
}

export function requestRecorder(services: Pick<Services, 'storage' | 'config' | 'logger' | 'realClock' | 'contract'>): RequestRecorder {
  const posted = new Set(postedReads(services.contract));
  let waiting: FinishedRequest[] = [];
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();

  const write = async (batch: FinishedRequest[]) => {
    try {
      const rows = (await Promise.all(batch.map((request) => rowOf(services, request, posted)))).filter((row): row is RequestLogRow => row !== undefined);
      if (rows.length === 0) return;
      const now = services.realClock.now().getTime();
      await requestLogRepository(services.storage.db, services.storage.engine).insert(rows, { perPartner: requestLogLimits.perPartner, before: new Date(now - requestLogLimits.maxAgeMs).toISOString() });
    } catch (error) {
      // An outage is told once by storage, not by every batch it refuses.
      if (!services.storage.health.failed(error)) services.logger.warn({ err: error, requests: batch.length }, 'request log: entries not stored; the requests were answered');
    }
  };
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const batch = waiting;
    waiting = [];
    writing = writing.then(() => (batch.length > 0 ? write(batch) : undefined));
    return writing;
  };
  return {
    record(request) {
      // A sandbox feature: production serves no request log.
      if (services.config.env === 'production' || !isRecorded(request.operationId, request.status)) return;
      if (!request.caller && !request.authorization?.startsWith('api_')) return;
      waiting.push(request);
      timer ??= setTimeout(() => void flush(), batchMs).unref();
    },
    flush,
  };
}

/** The entry of a request, or undefined when no key of a partner made it. */
async function rowOf(services: Pick<Services, 'storage' | 'config' | 'realClock'>, request: FinishedRequest, posted: ReadonlySet<string>): Promise<RequestLogRow | undefined> {
  // Made before any wait: a batch's entries are numbered in the order their answers were sent.
  const id = entryId();
  const caller = request.caller ?? (await callerOf(services, request));
  if (!caller) return undefined;
  const requestText = request.body === undefined ? undefined : JSON.stringify(request.body);
  const sent = keptBody(requestText);
  const answered = keptAnswer(request.answer, { read: isRead(request.method, request.operationId, posted), status: request.status });
  const path = request.url.split('?')[0]!;
  return {
    id,
    partner_id: topOf(caller.organization),
    organization_id: actedFor(request.params, request.body, caller.organization.id),
    operation_id: request.operationId ?? null,
    method: request.method,
    path: keptBody(request.url, 4096).body ?? path,
    surface: surfaceOfPath(path),
    status: request.status,
    duration_ms: Math.max(0, Math.round(request.durationMs)),
    received_at: request.receivedAt.toISOString(),
    sandbox_time: (caller.sandboxClock ? timeOf(caller.sandboxClock, request.receivedAt) : request.receivedAt).toISOString(),
    key_prefix: (request.authorization ?? '').slice(0, displayedPrefixLength),
    // A cut answer is not parsed: a list's page, whose items are not what the request touched, or an object kept only in part.
    object_ids: touchedObjects(request.params, request.body, answered.truncated ? undefined : parsed(answered.body)).join(' '),
    request_body: sent.body,
    response_body: answered.body,
    truncated: sent.truncated || answered.truncated ? 1 : 0,
  };
}

/** A request refused before its key was checked (a body that is not JSON) is still its partner's: the key is checked here. */
async function callerOf(services: Pick<Services, 'storage' | 'config'>, request: FinishedRequest): Promise<Caller | undefined> {
  try {
    return await authenticate(services.storage.db, services.config, request.authorization, request.receivedAt);
  } catch {
    return undefined;
  }
}

function parsed(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
