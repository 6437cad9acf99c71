/** Webhook subscriptions of both generations, and one subscription's deliveries with what each sent and got back. */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { everyValueOf } from '../../server/shared/contractEnums.ts';
import { ask, formatJson, type Ramp, type Schema } from '../api.ts';
import { useSession } from '../session.ts';
import { Action, ActionForm, ButtonRow, Copyable, Crumbs, Empty, ErrorText, Field, Listing, type Loaded, Status, text, useLoad, useTicker, When } from '../ui.tsx';
import { short } from './common.tsx';

const v2EventTypes = everyValueOf<Schema<'WebhookEventType'>>()(['orderUpdated', 'paymentAccountUpdated', 'kycUpdated', 'kybUpdated']);
const v1EventTypes = everyValueOf<Schema<'V1WebhookEventType'>>()(['order_updated', 'swap_updated', 'customer_updated', 'kyc_updated', 'kyb_updated', 'bank_account_updated']);

type Delivery = Schema<'SandboxWebhookDelivery'>;

export function Webhooks() {
  const { ramp } = useSession();
  const v2 = useLoad(() => ask(ramp.GET('/webhook_subscriptions', { params: { query: { pageSize: 100 } } })), []);
  const v1 = useLoad(() => ask(ramp.POST('/ramp/webhooks', { body: { pageSize: 100 } })), []);
  const [secret, setSecret] = useState<string | undefined>(undefined);
  const created = (reload: () => void) => (value: unknown) => {
    setSecret((value as { secret: string }).secret);
    reload();
  };
  return (
    <>
      <h1 tabIndex={-1}>Webhooks</h1>
      <p>A subscription receives one event type (the API's rule): subscribe once per type you handle. Open one to see each delivery.</p>
      <p id="no-disable-no-test">
        The API has no operation to disable a subscription or to send a test event: delete the subscription and subscribe again later; to test a receiver, open a v2 event under{' '}
        <a href="#/events">Events</a> and press <em>Re-send this event</em>.
      </p>
      {secret && (
        <div class="notice" role="status" id="new-secret">
          <strong>Keep this signing secret now: it is not shown again.</strong>
          <code class="wrap">{secret}</code>
        </div>
      )}
      <Subscriptions title="v2 subscriptions" id="v2-subscriptions" load={v2} surface="v2" remove={(id) => ask(ramp.DELETE('/webhook_subscription/{id}', { params: { path: { id } } }))} reload={v2.reload}>
        <ActionForm
          label="Subscribe"
          id="create-v2-subscription"
          submit={(data) => ask(ramp.POST('/webhook_subscription', { body: { url: text(data, 'url') ?? '', eventType: (text(data, 'eventType') ?? 'orderUpdated') as Schema<'WebhookEventType'> } }))}
          done={created(v2.reload)}
        >
          <Field label="URL" name="url" required hint="The sandbox accepts http:// URLs, localhost included." />
          <Field label="Event type" name="eventType" options={[...v2EventTypes]} value="orderUpdated" />
        </ActionForm>
      </Subscriptions>
      <Subscriptions title="v1 subscriptions" id="v1-subscriptions" load={v1} surface="v1" remove={(id) => ask(ramp.DELETE('/ramp/webhook/{id}', { params: { path: { id } } }))} reload={v1.reload}>
        <ActionForm
          label="Subscribe (v1)"
          submit={(data) => ask(ramp.POST('/ramp/webhook', { body: { url: text(data, 'url') ?? '', eventType: (text(data, 'eventType') ?? 'order_updated') as Schema<'V1WebhookEventType'> } }))}
          done={created(v1.reload)}
        >
          <Field label="URL (https)" name="url" required />
          <Field label="Event type" name="eventType" options={[...v1EventTypes]} value="order_updated" />
        </ActionForm>
      </Subscriptions>
    </>
  );
}

/** A list of webhook subscriptions of one generation, each opening its deliveries. */
function Subscriptions(props: {
  title: string;
  id: string;
  load: Loaded<{ id: string; eventType: string; url: string; createdAt: string }>;
  surface: 'v1' | 'v2';
  remove: (id: string) => Promise<unknown>;
  reload: () => void;
  children: ComponentChildren;
}) {
  return (
    <Listing
      title={props.title}
      id={props.id}
      load={props.load}
      loading
      columns={['Event type', 'URL', 'Created', '']}
      empty="No subscriptions."
      row={(s) => (
        <tr key={s.id} data-subscription={s.id}>
          <td>
            <a href={`#/webhooks/${s.id}/${props.surface}`}>{s.eventType}</a>
          </td>
          <td>
            <code class="wrap">{s.url}</code>
          </td>
          <td>
            <When at={s.createdAt} clock="sandbox" />
          </td>
          <td>
            <ButtonRow>
              <Action label="Delete" kind="danger" name={`delete-${s.id}`} run={() => props.remove(s.id)} done={props.reload} />
            </ButtonRow>
          </td>
        </tr>
      )}
    >
      {props.children}
    </Listing>
  );
}

const deliveryStatuses = everyValueOf<Schema<'WebhookDeliveryStatus'>>()(['pending', 'delivered', 'abandoned']);

/** A delivery made by a re-send: its subscription already had one of the same event. */
export const isResend = (d: Delivery, all: Delivery[]) => all.some((o) => o.subscriptionId === d.subscriptionId && o.eventId === d.eventId && o.createdAt < d.createdAt);

export function Deliveries({ subscriptionId, surface }: { subscriptionId: string; surface: 'v1' | 'v2' }) {
  const { ramp, version } = useSession();
  const [status, setStatus] = useState('');
  // Attempts are not events: while the page is open it reads them again every second.
  const tick = useTicker(1000);
  const deliveries = useLoad(() => ask(ramp.GET('/sandbox/webhook_subscription/{id}/deliveries', { params: { path: { id: subscriptionId }, query: { pageSize: 30 } } })), [subscriptionId, version, tick]);
  const subscription = useLoad<{ eventType: string; url: string }>(
    () => (surface === 'v2' ? ask(ramp.GET('/webhook_subscription/{id}', { params: { path: { id: subscriptionId } } })) : ask(ramp.GET('/ramp/webhook/{id}', { params: { path: { id: subscriptionId } } }))),
    [subscriptionId],
  );
  const name = subscription.data ? `${surface} ${subscription.data.eventType} → ${subscription.data.url}` : `subscription ${short(subscriptionId)}`;
  const items = (deliveries.data?.items ?? []).filter((d) => !status || d.status === status);
  return (
    <>
      <Crumbs trail={[['#/webhooks', 'Webhooks']]} here={`Deliveries of ${subscription.data?.eventType ?? short(subscriptionId)}`} />
      <h1 tabIndex={-1}>Deliveries</h1>
      <p id="subscription-name">
        Of <strong>{name}</strong>, newest first. Attempt times are real time; the bodies carry sandbox time.
      </p>
      <form class="form filters" onSubmit={(e) => e.preventDefault()}>
        <Field label="Status" name="status" options={[['', 'any status'], ...deliveryStatuses]} value={status} onChange={setStatus} />
      </form>
      {deliveries.error !== undefined && <ErrorText error={deliveries.error} />}
      {deliveries.data && items.length === 0 && <Empty>No deliveries{status ? ` ${status}` : ''} yet.</Empty>}
      {items.map((d) => (
        <DeliveryCard key={d.id} delivery={d} resent={isResend(d, deliveries.data?.items ?? [])} reload={deliveries.reload} />
      ))}
    </>
  );
}

/** What a delivery is about: the object of its body (`order`, `paymentAccount`, … or a v1 entity). */
function aboutOf(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    for (const [name, value] of Object.entries(parsed)) {
      const id = (value as { id?: unknown; customerId?: unknown } | null)?.id;
      if (typeof value === 'object' && value !== null && typeof id === 'string') return `${name} ${short(id)}`;
    }
    return typeof parsed.organizationId === 'string' ? `organization ${short(parsed.organizationId)}` : undefined;
  } catch {
    return undefined;
  }
}

/** A delivery with what it sent and got back; `reload` (a subscription's page) adds its event's re-send. */
export function DeliveryCard({ delivery: d, resent, reload }: { delivery: Delivery; resent?: boolean; reload?: () => void }) {
  return (
    <details class="card delivery" key={d.id} data-delivery={d.id} data-event-id={d.eventId}>
      <summary>
        <span>{d.eventType}</span> <span class="muted">{aboutOf(d.body) ?? ''}</span> <Status value={d.status} /> {resent && <span class="gen">re-send</span>} <When at={d.createdAt} clock="real" />{' '}
        <span class="muted">{d.attempts.length} attempt(s)</span>
      </summary>
      <dl class="facts">
        <dt>URL</dt>
        <dd>
          <code class="wrap">{d.url}</code>
        </dd>
        <dt>X-Signature</dt>
        <dd>
          <code class="wrap signature">{d.signature}</code>
        </dd>
        <dt>Event id</dt>
        <dd>
          <Copyable value={d.eventId} what="event id" /> <a href={`#/event/${d.eventId}`}>the event</a>
        </dd>
        {d.nextAttemptAt && (
          <>
            <dt>Next attempt</dt>
            <dd>
              <When at={d.nextAttemptAt} clock="real" />
            </dd>
          </>
        )}
      </dl>
      <h3>Body sent</h3>
      <pre tabIndex={0} class="formatted">{formatJson(d.body)}</pre>
      <details>
        <summary>The exact bytes (what X-Signature signs)</summary>
        <pre tabIndex={0} class="body">{d.body}</pre>
      </details>
      <Attempts attempts={d.attempts} />
      {reload && d.surface === 'v2' && <Resend eventId={d.eventId} eventType={d.eventType} done={reload} />}
    </details>
  );
}

/** The current subscriptions to an event type, of the generation that sends it. */
export async function subscriptionsTo(ramp: Ramp, event: { surface: 'v1' | 'v2'; eventType: string }): Promise<{ id: string }[]> {
  const subscriptions =
    event.surface === 'v2'
      ? (await ask(ramp.GET('/webhook_subscriptions', { params: { query: { pageSize: 100 } } }))).items
      : (await ask(ramp.POST('/ramp/webhooks', { body: { pageSize: 100 } }))).items;
  return subscriptions.filter((s) => s.eventType === event.eventType);
}

/** The deliveries of one event to these subscriptions (up to 100 to each: its first and its re-sends). */
export async function deliveriesOfEvent(ramp: Ramp, subscriptions: { id: string }[], eventId: string): Promise<Delivery[]> {
  const pages = await Promise.all(subscriptions.map((s) => ask(ramp.GET('/sandbox/webhook_subscription/{id}/deliveries', { params: { path: { id: s.id }, query: { eventId, pageSize: 100 } } }))));
  return pages.flatMap((p) => p.items);
}

/** What a re-send did, in words: the new deliveries, and those still pending it did not double. */
function resendSaid(eventType: string, made: number, pending: number): string {
  if (made + pending === 0) return `No subscription to ${eventType} now: nothing was sent.`;
  const said = `Re-sent: ${made} new ${made === 1 ? 'delivery' : 'deliveries'}`;
  return pending === 0 ? `${said}.` : `${said}; ${pending} already pending, which a re-send does not double.`;
}

/** Re-sends a v2 event (resendWebhookEvent) to every current subscription to its type, and says how many new deliveries it made. */
export function Resend({ eventId, eventType, done }: { eventId: string; eventType: string; done?: () => void }) {
  const { ramp } = useSession();
  const [said, setSaid] = useState<string | undefined>(undefined);
  const run = async () => {
    // One delivery per subscription: a new one, or the one of this event still pending, which the re-send does not double.
    const answer = await ask(ramp.POST('/sandbox/webhook_event/{eventId}/resend', { params: { path: { eventId } } }));
    return resendSaid(eventType, answer.newDeliveryIds.length, answer.deliveries.length - answer.newDeliveryIds.length);
  };
  return (
    <>
      <ButtonRow>
        <Action
          label="Re-send this event"
          name="resend"
          run={run}
          done={(value) => {
            setSaid(value as string);
            done?.();
          }}
        />
      </ButtonRow>
      {said && (
        <p role="status" class="notice resend-said">
          {said}
        </p>
      )}
    </>
  );
}

function Attempts({ attempts }: { attempts: Delivery['attempts'] }) {
  if (attempts.length === 0) return <Empty>No attempt yet.</Empty>;
  return (
    <>
      <h3>Attempts</h3>
      <table>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Sent</th>
            <th scope="col">Took</th>
            <th scope="col">Answer</th>
            <th scope="col">Receiver said</th>
          </tr>
        </thead>
        <tbody>
          {attempts.map((a) => (
            <tr key={a.number} class="attempt">
              <td>{a.number}</td>
              <td>
                <When at={a.startedAt} clock="real" />
              </td>
              <td>{a.durationMs === null ? '—' : `${a.durationMs} ms`}</td>
              <td class="answer">{a.statusCode !== null ? `HTTP ${a.statusCode}` : (a.error ?? 'under way')}</td>
              <td>{a.responseExcerpt ? <code class="wrap excerpt">{a.responseExcerpt}</code> : <span class="muted">nothing</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
