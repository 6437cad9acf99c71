/** The v2 order page, and the timeline of any object. */
import { everyValueOf } from '../../server/shared/contractEnums.ts';
import { orderSimulationApplies } from '../../server/features/orders/machine.ts';
import { ask, formatJson, type Schema } from '../api.ts';
import { useSession } from '../session.ts';
import { Copyable, Crumbs, Empty, ErrorText, Loading, Section, Status, useLoad, When } from '../ui.tsx';
import { SandboxClock } from './clock.tsx';
import { organizationHref, short, Simulations, statusIn } from './common.tsx';
import { RecentRequests } from './requests.tsx';

type OrderSimulation = Schema<'SimulateOrderRequest'>['action'];

// The contract's list, bound to its type: tsc refuses a value too many or too few.
const orderSimulations = everyValueOf<OrderSimulation>()(['confirmSourceFunds', 'deliver', 'makeClaimable', 'completeClaim', 'fail', 'expireFunding', 'refund', 'replaceFundingInstructions']);

export function OrderPage({ organizationId, orderId }: { organizationId: string; orderId: string }) {
  const { ramp, version } = useSession();
  const order = useLoad(() => ask(ramp.GET('/organization/{organizationId}/order/{id}', { params: { path: { organizationId, id: orderId } } })), [orderId, version]);
  const organization = useLoad(() => ask(ramp.GET('/organization/{organizationId}', { params: { path: { organizationId } } })), [organizationId]);
  const path = { organizationId, id: orderId };
  const all: (OrderSimulation | 'deposit')[] = ['deposit', ...orderSimulations];
  const run = (action: OrderSimulation | 'deposit') => () =>
    action === 'deposit'
      ? ask(ramp.POST('/sandbox/organization/{organizationId}/order/{id}/deposit', { params: { path }, body: {} }))
      : ask(
          ramp.POST('/sandbox/organization/{organizationId}/order/{id}/simulate', {
            params: { path },
            body: action === 'fail' ? { action, failure: { code: 'transactionFailed', message: 'Failed from the sandbox console.' } } : { action },
          }),
        );
  if (order.error && !order.data) return <ErrorText error={order.error} />;
  if (!order.data) return <Loading />;
  const o = order.data;
  // The simulators that apply to the order: the table simulateDeposit and simulateOrder refuse through.
  const applies = (action: OrderSimulation | 'deposit') => orderSimulationApplies(o.type, o.status, action);
  return (
    <>
      <Crumbs trail={[['#/', 'Organizations'], [organizationHref(organizationId), organization.data?.displayName ?? `Organization ${short(organizationId)}`]]} here={`Order ${short(o.id)}`} />
      <h1 tabIndex={-1}>
        Order <code>{short(o.id)}</code> <Status value={o.status} />
      </h1>
      <OrderFacts order={o} awaitsFunds={applies('deposit')} />
      <Section title="Simulate" id="simulate">
        <Simulations all={all} applies={applies} run={run} done={order.reload} status={o.status} what={`${o.type} order`} />
      </Section>
      <Timeline subjectId={orderId} created={o.createdAt} />
      <RecentRequests objectId={orderId} what="this order" />
      <SandboxClock />
    </>
  );
}

/** What the order is; its funding instructions only while it waits for them to be followed. */
function OrderFacts({ order: o, awaitsFunds }: { order: Schema<'Order'>; awaitsFunds: boolean }) {
  const funding = o.fundingInstructions;
  const destination = funding && (funding.destination.type === 'spei' ? funding.destination.clabe : funding.destination.address);
  return (
    <Section title="Order" id="order">
      <dl class="facts">
        <dt>Status</dt>
        <dd id="order-status">
          <Status value={o.status} />
        </dd>
        <dt>Type</dt>
        <dd>{o.type}</dd>
        <dt>Amounts</dt>
        <dd>
          {o.sourceAmount} {o.sourceAsset} → {o.targetAmount} {o.targetAsset}
        </dd>
        <dt>Id</dt>
        <dd>
          <Copyable value={o.id} what="order id" />
        </dd>
        <dt>Quote</dt>
        <dd>
          <Copyable value={o.quoteId} what="quote id" />
        </dd>
        {funding && destination && awaitsFunds && (
          <>
            <dt>Fund it</dt>
            <dd id="fund-it">
              send {funding.amount} {funding.asset} to <Copyable value={destination} what={funding.destination.type === 'spei' ? 'deposit CLABE' : 'deposit address'} wrap /> before <When at={funding.expiresAt} clock="sandbox" />
            </dd>
          </>
        )}
        {o.failure && (
          <>
            <dt>Failure</dt>
            <dd>
              {o.failure.code}: {o.failure.message}
            </dd>
          </>
        )}
      </dl>
    </Section>
  );
}

/** Every event about one object, oldest first: its status changes with their occurredAt. */
export function Timeline({ subjectId, created }: { subjectId: string; created?: string }) {
  const { ramp, version } = useSession();
  const timeline = useLoad(() => ask(ramp.GET('/sandbox/events', { params: { query: { subjectId, pageSize: 100 } } })), [subjectId, version]);
  return (
    <Section title="Timeline" id="timeline">
      {timeline.error !== undefined && <ErrorText error={timeline.error} />}
      <ol class="timeline">
        {created && (
          <li data-created>
            <When at={created} clock="sandbox" /> <Status value="created" /> <span class="muted">(creation sends no event)</span>
          </li>
        )}
        {timeline.data?.items.map((e) => (
          <li key={e.eventId} data-event={e.eventId}>
            <When at={e.occurredAt} clock="sandbox" /> <Status value={statusIn(e)} /> <span class="muted">{e.eventType}</span> <a href={`#/event/${e.eventId}`}>event #{e.cursor} and its deliveries</a>
            <details>
              <summary>Body</summary>
              <pre tabIndex={0}>{formatJson(JSON.stringify(e.body))}</pre>
            </details>
          </li>
        ))}
      </ol>
      {timeline.data && timeline.data.items.length === 0 && <Empty>No status change since.</Empty>}
    </Section>
  );
}
