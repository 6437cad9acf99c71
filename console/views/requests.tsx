/**
 * The request log (listSandboxRequests): every API request of your keys, newest first, with
 * what was sent and answered, a refused one's problem, and links to what it touched; and the
 * recent requests of one object, on its page.
 */
import { useState } from 'preact/hooks';
import { ask, failureOf, formatJson, type Schema } from '../api.ts';
import { useSession } from '../session.ts';
import { Copyable, Empty, ErrorText, Field, Listing, Loading, Section, useLoad, When, type Choice } from '../ui.tsx';
import { orderHref, organizationHref, requestsHref, short } from './common.tsx';

type Entry = Schema<'SandboxRequest'>;
type Filters = { status?: string; operationId?: string; organizationId?: string; objectId?: string };

const statusChoices: Choice[] = [['', 'any status'], ['2xx', '2xx (succeeded)'], ['4xx', '4xx (refused)'], ['5xx', '5xx (failed)']];

export function RequestLog({ objectId }: { objectId?: string }) {
  const { ramp, version, partner } = useSession();
  const [filters, setFilters] = useState<Filters>({});
  const query = { ...filters, ...(objectId ? { objectId } : {}), pageSize: 100 };
  const page = useLoad(() => ask(ramp.GET('/sandbox/requests', { params: { query } })), [JSON.stringify(query), version]);
  const customers = useLoad(() => ask(ramp.GET('/organizations', { params: { query: { pageSize: 100 } } })), []);
  const set = (name: keyof Filters) => (value: string) => setFilters((f) => ({ ...f, [name]: value || undefined }));
  const organizations: Choice[] = [['', 'any organization'], [partner.organizationId, partner.displayName], ...(customers.data?.items ?? []).map((c): Choice => [c.organizationId, c.displayName])];
  return (
    <>
      <h1 tabIndex={-1}>Requests</h1>
      <p id="requests-scope">
        Every API request your keys made, the console's included, newest first: what was sent and what the sandbox answered, with secrets redacted. Left out: the successful reads of the event
        feed, of webhook deliveries and of this log, which the console repeats every second (their refusals are kept). The newest 1,000 are kept, none older than 7 days. Times are real time,
        with the sandbox time each was served at.
      </p>
      {objectId && (
        <p id="requests-object">
          Only the requests that touched <code>{objectId}</code>. <a href={requestsHref()}>Show all</a>
        </p>
      )}
      <form class="form filters" id="request-filters" onSubmit={(e) => e.preventDefault()}>
        <Field label="Status" name="status" options={statusChoices} value={filters.status ?? ''} onChange={set('status')} />
        <Field label="Operation (operationId)" name="operationId" value={filters.operationId ?? ''} onChange={set('operationId')} hint="For example createPaymentAccount." />
        <Field label="Organization" name="organizationId" options={organizations} value={filters.organizationId ?? ''} onChange={set('organizationId')} />
      </form>
      {page.error !== undefined && <ErrorText error={page.error} />}
      {!page.data ? page.error === undefined && <Loading /> : <Entries items={page.data.items} />}
    </>
  );
}

/** The requests that touched one object, newest first, on its page. */
export function RecentRequests({ objectId, what }: { objectId: string; what: string }) {
  const { ramp, version } = useSession();
  // The pages' own reads touch it at every reload: what changed it, or was refused, is what a partner looks for here.
  const page = useLoad(() => ask(ramp.GET('/sandbox/requests', { params: { query: { objectId, reads: false, pageSize: 10 } } })), [objectId, version]);
  return (
    <Section title="Requests" id="requests">
      <p>
        The latest API requests that changed {what} or were refused, newest first (successful reads are left out here). <a href={requestsHref(objectId)}>Every request that touched it</a>
      </p>
      {page.error !== undefined && <ErrorText error={page.error} />}
      {page.data && <Entries items={page.data.items} />}
    </Section>
  );
}

function Entries({ items }: { items: Entry[] }) {
  if (items.length === 0) return <Empty>No request matches.</Empty>;
  return (
    <ol class="requests">
      {items.map((entry) => (
        <RequestEntry entry={entry} />
      ))}
    </ol>
  );
}

function RequestEntry({ entry }: { entry: Entry }) {
  const failure = failureOf(entry.status, entry.responseBody);
  return (
    <li class="card request" data-request={entry.id} data-status={entry.status} data-operation={entry.operationId ?? ''}>
      <details>
        <summary>
          <span class={`http http-${String(entry.status)[0]}xx`}>{entry.status}</span> <strong>{entry.method}</strong> <code class="wrap">{entry.path}</code> <span class="muted">{entry.operationId ?? 'no operation'}</span>{' '}
          <span class="gen">{entry.surface}</span> <span class="muted">{entry.durationMs} ms</span> <When at={entry.receivedAt} clock="real" />
        </summary>
        {failure && <ErrorText error={failure} />}
        <dl class="facts">
          <dt>Served at</dt>
          <dd>
            <When at={entry.sandboxTime} clock="sandbox" />
          </dd>
          <dt>Key</dt>
          <dd>
            <Copyable value={entry.keyPrefix} what="key prefix" />
          </dd>
          <dt>Request id</dt>
          <dd>
            <Copyable value={entry.id} what="request id" />
          </dd>
          <dt>Touched</dt>
          <dd class="touched">{entry.objectIds.length === 0 ? <span class="muted">nothing by id</span> : entry.objectIds.map((id) => <ObjectLink entry={entry} id={id} />)}</dd>
        </dl>
        <Body title="Request body" text={entry.requestBody} />
        <Body title="Response body" text={entry.responseBody} />
        {entry.truncated && <p class="muted">A body was longer than the log keeps (16 KiB, or 2 KiB of a successful read's answer): it is kept up to there.</p>}
      </details>
    </li>
  );
}

/** An object a request touched, linked to its page where the console has one, else to the requests that touched it. */
function ObjectLink({ entry, id }: { entry: Entry; id: string }) {
  const answer = parse(entry.responseBody) as { id?: string; quoteId?: string } | undefined;
  const isOrder = entry.surface === 'v2' && /Order|Deposit/.test(entry.operationId ?? '') && id !== answer?.quoteId && id !== entry.organizationId && (answer?.id === id || entry.path.includes(`/order/${id}`));
  const href = id === entry.organizationId ? organizationHref(id) : isOrder ? orderHref(entry.organizationId, id) : entry.surface === 'v1' && entry.path.includes(`/order/${id}`) ? `#/v1order/${id}` : requestsHref(id);
  const label = id === entry.organizationId ? `organization ${short(id)}` : isOrder ? `order ${short(id)}` : short(id);
  return (
    <a class="object" href={href} data-object={id}>
      {label}
    </a>
  );
}

function Body({ title, text }: { title: string; text: string | null }) {
  return (
    <>
      <h3>{title}</h3>
      {text === null ? <p class="muted">none</p> : <pre tabIndex={0} class="body">{formatJson(text)}</pre>}
    </>
  );
}

function parse(text: string | null): unknown {
  try {
    return text === null ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}
