/**
 * The request log's rules, with no storage (listSandboxRequests in the contract): what is
 * recorded, what a secret looks like, which objects a request touched, and the time-ordered
 * ids the log is read by.
 */
import { v7 as uuidv7 } from 'uuid';
import { surfaceOf, type Contract } from '../../shared/contract.ts';
import { isUuid as isUuidText } from '../../shared/uuid.ts';

/**
 * The newest requests kept per partner, how long one is kept (real time), and how much of each
 * body: less of a successful read's answer, which can be read again, while what was sent, what
 * a write answered and every refusal cannot.
 */
export const requestLogLimits = { perPartner: 1000, maxAgeMs: 7 * 24 * 3600_000, bodyBytes: 16 * 1024, readAnswerBytes: 2 * 1024 };

/**
 * How much of an answer is held beyond what is kept, so that it is redacted before it is cut:
 * the longest secret the sandbox answers (a signed token, a presigned URL) is far shorter.
 */
const secretRoom = 4 * 1024;

/** How much of an answer is held for the log as it is sent (http/requestLog.ts). */
export const captureBytes = requestLogLimits.bodyBytes + secretRoom;

/** The reads sent as POST, v1's lists and searches: the contract marks them `x-safe` (openapi/README.md). */
export const postedReads = (contract: Contract): string[] => contract.operations.filter((o) => o.safe && o.method !== 'get').map((o) => o.operationId);

/** A read: GET, or one of the reads sent as POST. The repository's `withoutReads` filter is the same rule in SQL. */
export const isRead = (method: string, operationId: string | undefined, posted: ReadonlySet<string>) =>
  method === 'GET' || (operationId !== undefined && posted.has(operationId));

/**
 * An answer as kept: redacted, then cut, a successful read's to less. Of a long answer only what
 * is kept and room for one secret beyond it are held: a secret that starts before the cut is
 * whole in them, and one that the end of what is held falls in is left out with that room.
 */
export function keptAnswer(answer: (string | Buffer)[], request: { read: boolean; status: number }): { body: string | null; truncated: boolean } {
  const limit = request.status < 400 && request.read ? requestLogLimits.readAnswerBytes : requestLogLimits.bodyBytes;
  const held = limit + secretRoom;
  // A character is at least a byte: a text's first `held` + 1 characters hold its first `held` + 1 bytes, enough to tell a longer answer.
  const bytes = answer.map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk.length > held ? chunk.slice(0, held + 1) : chunk, 'utf8') : chunk));
  const length = bytes.reduce((total, chunk) => total + chunk.length, 0);
  if (length <= held) return keptBody(Buffer.concat(bytes, length).toString('utf8'), limit);
  const clean = Buffer.from(redact(Buffer.concat(bytes, held).toString('utf8')), 'utf8');
  return { body: withoutCutCharacter(clean.subarray(0, Math.max(0, Math.min(limit, clean.length - secretRoom)))), truncated: true };
}

/**
 * The reads of what the sandbox records: pollers (the console among them) repeat them every
 * second, and their successes would push the requests a partner looks for out of the log.
 */
const pollingReads = new Set(['listSandboxEvents', 'listSandboxRequests', 'listSandboxWebhookDeliveries']);

export const isRecorded = (operationId: string | undefined, status: number) => status !== 401 && !(operationId !== undefined && pollingReads.has(operationId) && status < 400);

export const redacted = '[redacted]';

/**
 * The JSON members whose value is a credential (webhook secrets, OAuth tokens and assertions,
 * passwords), by name: a name ending in one of `credentialEndings`, or one of `credentialNames`.
 */
const credentialEndings = ['[Ss]ecret', '[Tt]oken'];
const credentialNames = ['assertion', 'password', 'client_assertion', 'code_verifier'];
const secretMember = new RegExp(`"([A-Za-z_]*(?:${credentialEndings.join('|')})|${credentialNames.join('|')})"(\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'g');
/**
 * How such a member's name ends, its closing quote included. Most answers hold none, and the
 * member search tries each quoted word of a text, so a text without one is not searched.
 */
const secretMemberName = new RegExp(`(?:${[...credentialEndings, ...credentialNames].join('|')})"`);
/** An API key anywhere: its first 16 characters are what the key list shows, the rest is the secret. */
const apiKey = /\bapi_(?:sand|prod):[^\s"&,;]+/g;
/** A JWT anywhere (sign-in assertions, tokens). */
const jwt = /\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;
/** The credential of a presigned URL or a token in a query (`?signature=…`, `&token=…`). */
const secretParameter = /([?&](?:signature|token|access_token|refresh_token|secret|key|code)=)[^&"\s#]+/gi;

/** Text with every secret it holds replaced by `[redacted]`. Cut a body only after this: a cut secret would not be recognised. */
export function redact(text: string): string {
  const members = secretMemberName.test(text) ? text.replace(secretMember, (_, name: string, colon: string) => `"${name}"${colon}"${redacted}"`) : text;
  return members
    .replace(apiKey, (key) => `${key.slice(0, 16)}${redacted}`)
    .replace(jwt, redacted)
    .replace(secretParameter, `$1${redacted}`);
}

/** A body as kept: redacted, then cut to the limit on a character boundary. */
export function keptBody(text: string | undefined, limit = requestLogLimits.bodyBytes): { body: string | null; truncated: boolean } {
  if (text === undefined || text === '') return { body: null, truncated: false };
  const clean = redact(text);
  if (Buffer.byteLength(clean, 'utf8') <= limit) return { body: clean, truncated: false };
  // No character is shorter than a byte, so the first `limit` characters hold the first `limit` bytes.
  return { body: withoutCutCharacter(Buffer.from(clean.slice(0, limit), 'utf8').subarray(0, limit)), truncated: true };
}

/** Bytes cut from a longer text: a cut inside a multi-byte character decodes to U+FFFD, dropped. */
const withoutCutCharacter = (bytes: Buffer) => bytes.toString('utf8').replace(/\uFFFD$/, '');

const isUuid = (value: unknown): value is string => typeof value === 'string' && isUuidText(value);

/** The ids an object names at its top level (`id`, `quoteId`, …): not those of a list's items. */
function idsOf(value: unknown): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.entries(value).filter(([name, v]) => (name === 'id' || /Id$/.test(name)) && isUuid(v)).map(([, v]) => v as string);
}

/** The objects a request touched: its path's UUIDs, then the ids of its body and of its answer's object; at most 20. */
export function touchedObjects(params: Record<string, unknown>, body: unknown, answer: unknown): string[] {
  const ids = [...Object.values(params).filter(isUuid), ...idsOf(body), ...idsOf(answer)].map((id) => id.toLowerCase());
  return [...new Set(ids)].slice(0, 20);
}

/** The organization a request acted for: its path's, else its body's customer, else the key's own. */
export function actedFor(params: Record<string, unknown>, body: unknown, keyOrganizationId: string): string {
  const named = [params.organizationId, params.customer_id, params.org_id, (body as { customerId?: unknown } | undefined)?.customerId].find(isUuid);
  return (named ?? keyOrganizationId).toLowerCase();
}

/** The generation of a request a key made: the lookups and sign-in take no key, so it is v1 or v2. */
export const surfaceOfPath = (path: string): 'v1' | 'v2' => (surfaceOf(path) === 'v1' ? 'v1' : 'v2');

/**
 * An entry's id: a UUID version 7 (RFC 9562), time-ordered, so the log is read newest first by
 * its id with no counter to share between processes; within a process `uuid` keeps them in the
 * order they are made, as the answers were sent.
 */
export const entryId = (): string => uuidv7();
