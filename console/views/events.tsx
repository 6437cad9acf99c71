/** The live event feed, filtered by type and organization; one event with its deliveries. */
import { useState } from 'preact/hooks';
import { ask, formatJson } from '../api.ts';
import { useSession, type SandboxEvent } from '../session.ts';
import { Copyable, Crumbs, Empty, Field, Loading, Section, Status, useLoad, useTicker, When, type Choice } from '../ui.tsx';
import { statusIn, subjectOf } from './common.tsx';
import { DeliveryCard, deliveriesOfEvent, isResend, Resend, subscriptionsTo } from './webhooks.tsx';

export function EventFeed() {
  const { events, ramp, partner } = useSession();
  const [type, setType] = useState('');
  const [organization, setOrganization] = useState('');
  const customers = useLoad(() => ask(ramp.GET('/organizations', { params: { query: { pageSize: 100 } } })), []);
  const names = new Map([[partner.organizationId, partner.displayName], ...(customers.data?.items ?? []).map((c): [string, string] => [c.organizationId, c.displayName])]);
  const types = [...new Set(events.map((e) => `${e.surface} ${e.eventType}`))].sort();
  const organizations = [...new Set(events.map((e) => e.organizationId))];
  const shown = [...events].reverse().filter((e) => (!type || `${e.surface} ${e.eventType}` === type) && (!organization || e.organizationId === organization));
  return (
    <>
      <h1 tabIndex={-1}>Events</h1>
      <p>
        Every change the sandbox recorded for your organization and its customers, newest first, as it happens: each with its number in your feed (its <code>cursor</code>), the API generation
        whose subscriptions receive it, and its time on your sandbox clock. One change sends an event of each generation (v2 <code>kycUpdated</code>, v1 <code>kyc_updated</code> and{' '}
        <code>customer_updated</code>): subscribe to the generation you use.
      </p>
      <form class="form filters" id="event-filters" onSubmit={(e) => e.preventDefault()}>
        <Field label="Event type" name="eventType" options={[['', 'every type'], ...types.map((t): Choice => [t, t])]} value={type} onChange={setType} />
        <Field label="Organization" name="organizationId" options={[['', 'every organization'], ...organizations.map((id): Choice => [id, names.get(id) ?? id])]} value={organization} onChange={setOrganization} />
      </form>
      {shown.length === 0 ? (
        <Empty>{events.length === 0 ? 'No events yet.' : 'No event matches.'}</Empty>
      ) : (
        <ol class="events">
          {shown.map((e) => (
            <EventRow event={e} organizationName={names.get(e.organizationId)} />
          ))}
        </ol>
      )}
    </>
  );
}

function EventRow({ event: e, organizationName }: { event: SandboxEvent; organizationName: string | undefined }) {
  const subject = subjectOf(e);
  return (
    <li key={e.eventId} data-event={e.eventId} data-cursor={e.cursor}>
      <span class="cursor">#{e.cursor}</span> <span class="gen">{e.surface}</span> <strong>{e.eventType}</strong> <Status value={statusIn(e)} /> <a href={subject.href}>{subject.label}</a>{' '}
      <span class="muted">{organizationName ?? ''}</span> <When at={e.occurredAt} clock="sandbox" /> <a href={`#/event/${e.eventId}`}>deliveries</a>
      <details>
        <summary>Body</summary>
        <pre tabIndex={0}>{formatJson(JSON.stringify(e.body))}</pre>
      </details>
    </li>
  );
}

/** One event of the feed and every delivery of it, to each subscription of its type. */
export function EventPage({ eventId }: { eventId: string }) {
  const { events, ramp, version } = useSession();
  const event = events.find((e) => e.eventId === eventId);
  const subscriptions = useLoad(() => (event ? subscriptionsTo(ramp, event) : Promise.resolve(undefined)), [eventId, event === undefined, version]);
  // Attempts are not events: while the page is open it reads them again every second, as a subscription's page does.
  const tick = useTicker(1000);
  const deliveries = useLoad(() => (subscriptions.data ? deliveriesOfEvent(ramp, subscriptions.data, eventId) : Promise.resolve(undefined)), [subscriptions.data, tick]);
  if (!event) return <Loading />;
  const subject = subjectOf(event);
  return (
    <>
      <Crumbs trail={[['#/events', 'Events']]} here={`Event #${event.cursor}`} />
      <h1 tabIndex={-1}>
        Event #{event.cursor}: {event.eventType}
      </h1>
      <Section title="Event" id="event">
        <dl class="facts">
          <dt>Event id</dt>
          <dd>
            <Copyable value={event.eventId} what="event id" />
          </dd>
          <dt>Generation</dt>
          <dd>{event.surface}</dd>
          <dt>About</dt>
          <dd>
            <a href={subject.href}>{subject.label}</a>
          </dd>
          <dt>Occurred</dt>
          <dd>
            <When at={event.occurredAt} clock="sandbox" />
          </dd>
        </dl>
        <pre tabIndex={0}>{formatJson(JSON.stringify(event.body))}</pre>
        {event.surface === 'v2' ? (
          <Resend eventId={event.eventId} eventType={event.eventType} done={deliveries.reload} />
        ) : (
          <p class="muted">The API re-sends v2 events only.</p>
        )}
      </Section>
      <Section title="Deliveries" id="event-deliveries">
        {deliveries.data === undefined ? (
          <Loading />
        ) : deliveries.data.length === 0 ? (
          <Empty>No subscription of {event.surface} {event.eventType} received it.</Empty>
        ) : (
          deliveries.data.map((d) => <DeliveryCard key={d.id} delivery={d} resent={isResend(d, deliveries.data ?? [])} />)
        )}
      </Section>
    </>
  );
}
