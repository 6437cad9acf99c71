/** A customer's v1 orders, swaps and bank accounts, and the v1 order page. */
import { everyValueOf } from '../../server/shared/contractEnums.ts';
import { canMoveBankAccount, v1BankAccountStatuses, type V1BankAccountStatus } from '../../server/features/v1/bankAccounts/machine.ts';
import { v1OrderSimulationApplies } from '../../server/features/v1/orders/machine.ts';
import { v1SwapSimulationApplies } from '../../server/features/v1/swaps/machine.ts';
import { ask, type Schema } from '../api.ts';
import { useSession } from '../session.ts';
import { Action, ButtonRow, Copyable, Crumbs, ErrorText, Listing, Loading, Section, Status, useLoad } from '../ui.tsx';
import { SandboxClock } from './clock.tsx';
import { organizationHref, short, Simulations, wordsOf } from './common.tsx';
import { Timeline } from './order.tsx';
import { RecentRequests } from './requests.tsx';

type V1OrderSimulation = Schema<'V1SimulateOrderRequest'>['action'];
type V1SwapSimulation = Schema<'V1SimulateSwapRequest'>['action'];

// The contract's lists, bound to its types: tsc refuses a value too many or too few.
const v1OrderSimulations = everyValueOf<V1OrderSimulation>()(['burnConfirmed', 'tokensDelivered', 'fiatSent', 'reversalWindowPassed', 'fail', 'expireTransaction']);
const v1SwapSimulations = everyValueOf<V1SwapSimulation>()(['sendConfirmed', 'fundsReceived', 'delivered', 'fail', 'expireTransaction']);

export function V1Orders({ customerId }: { customerId: string }) {
  const { ramp, version } = useSession();
  const orders = useLoad(() => ask(ramp.POST('/ramp/customer/{customer_id}/orders', { params: { path: { customer_id: customerId } }, body: { pageSize: 100 } })), [customerId, version]);
  return (
    <Listing
      title="Orders (v1)"
      id="v1-orders"
      load={orders}
      columns={['Order', 'Type', 'Amount', 'Status']}
      empty="No v1 orders."
      row={(o) => (
        <tr key={o.id}>
          <td>
            <a href={`#/v1order/${o.id}`}>{short(o.id)}</a>
          </td>
          <td>{o.type}</td>
          <td>
            {o.sourceAmount} {o.token}
          </td>
          <td>
            <Status value={o.status} />
          </td>
        </tr>
      )}
    />
  );
}

/** A customer's v1 swaps (v1ListCustomerSwaps), each with the simulations that apply to its status. */
export function V1Swaps({ customerId }: { customerId: string }) {
  const { ramp, version } = useSession();
  const swaps = useLoad(() => ask(ramp.POST('/ramp/customer/{customer_id}/swaps', { params: { path: { customer_id: customerId } }, body: { pageSize: 100 } })), [customerId, version]);
  return (
    <Listing
      title="Swaps (v1)"
      id="v1-swaps"
      load={swaps}
      columns={['Swap', 'Tokens', 'Status', 'Simulate']}
      empty="No v1 swaps."
      row={(s) => (
        <tr key={s.id} data-swap={s.id}>
          <td>
            <Copyable value={s.id} what="swap id" wrap />
          </td>
          <td>
            {s.sourceAmount} {s.sourceToken} → {s.targetToken}
          </td>
          <td>
            <Status value={s.status} />
          </td>
          <td>
            <ButtonRow>
              {v1SwapSimulations
                .filter((action) => v1SwapSimulationApplies(s.status, action))
                .map((action) => (
                  <Action label={wordsOf(action)[0]} title={wordsOf(action)[1]} name={action} run={() => ask(ramp.POST('/sandbox/ramp/swap/{id}/simulate', { params: { path: { id: s.id } }, body: { action } }))} done={swaps.reload} />
                ))}
            </ButtonRow>
          </td>
        </tr>
      )}
    />
  );
}

/** `bank_account_awaiting_deposit_verification` → "Set awaiting deposit verification". */
const bankAccountAction = (status: V1BankAccountStatus) => `Set ${status.replace(/^bank_account_/, '').replaceAll('_', ' ')}`;

export function V1BankAccounts({ customerId }: { customerId: string }) {
  const { ramp, version } = useSession();
  const accounts = useLoad(() => ask(ramp.POST('/ramp/customer/{customer_id}/bank-accounts', { params: { path: { customer_id: customerId } }, body: { pageSize: 100 } })), [customerId, version]);
  const move = (id: string, status: V1BankAccountStatus) => () =>
    ask(
      ramp.POST('/sandbox/ramp/bank-account/{id}/status', {
        params: { path: { id } },
        // Active is verified and usable for offramps (V1SimulateBankAccountRequest's Activate example).
        body: status === 'bank_account_active' ? { status, compliant: true } : { status },
      }),
    );
  return (
    <Listing
      title="Bank accounts (v1)"
      id="v1-bank-accounts"
      load={accounts}
      columns={['CLABE', 'Label', 'Status', 'Compliant', 'Simulate']}
      empty="No v1 bank accounts."
      row={(a) => (
        <tr key={a.internalAccountId} data-bank-account={a.internalAccountId}>
          <td>
            <Copyable value={a.clabe} what="CLABE" />
          </td>
          <td>{a.accountLabel}</td>
          <td>
            <Status value={a.status} />
          </td>
          <td>{a.compliant ? 'yes' : 'no'}</td>
          <td>
            <ButtonRow>
              {v1BankAccountStatuses
                .filter((status) => canMoveBankAccount(a.status, status))
                .map((status) => (
                  <Action label={bankAccountAction(status)} name={status} run={move(a.internalAccountId, status)} done={accounts.reload} />
                ))}
            </ButtonRow>
          </td>
        </tr>
      )}
    />
  );
}

export function V1OrderPage({ orderId }: { orderId: string }) {
  const { ramp, version } = useSession();
  const order = useLoad(() => ask(ramp.GET('/ramp/order/{id}', { params: { path: { id: orderId } } })), [orderId, version]);
  if (order.error && !order.data) return <ErrorText error={order.error} />;
  if (!order.data) return <Loading />;
  const o = order.data;
  // fiatReceived is POST /ramp/order/fiat_received; the others POST /sandbox/ramp/order/{id}/simulate. Where each applies is the machine's table.
  const all: (V1OrderSimulation | 'fiatReceived')[] = ['fiatReceived', ...v1OrderSimulations];
  const run = (action: V1OrderSimulation | 'fiatReceived') => () =>
    action === 'fiatReceived' ? ask(ramp.POST('/ramp/order/fiat_received', { body: { orderId: o.id } })) : ask(ramp.POST('/sandbox/ramp/order/{id}/simulate', { params: { path: { id: o.id } }, body: { action } }));
  return (
    <>
      <Crumbs trail={[['#/', 'Organizations'], [organizationHref(o.customerId), `Customer ${short(o.customerId)}`]]} here={`v1 order ${short(o.id)}`} />
      <h1 tabIndex={-1}>
        v1 order <code>{short(o.id)}</code> <Status value={o.status} />
      </h1>
      <Section title="Order" id="order">
        <dl class="facts">
          <dt>Status</dt>
          <dd id="order-status">
            <Status value={o.status} />
          </dd>
          <dt>Type</dt>
          <dd>{o.type}</dd>
          <dt>Amount</dt>
          <dd>
            {o.sourceAmount} {o.token}
          </dd>
          <dt>Id</dt>
          <dd>
            <Copyable value={o.id} what="order id" />
          </dd>
          {o.depositClabe && (
            <>
              <dt>Deposit CLABE</dt>
              <dd>
                <Copyable value={o.depositClabe} what="deposit CLABE" />
              </dd>
            </>
          )}
        </dl>
      </Section>
      <Section title="Simulate" id="simulate">
        <Simulations all={all} applies={(a) => v1OrderSimulationApplies(o.type, o.status, a)} run={run} done={order.reload} status={o.status} what={o.type} />
      </Section>
      <Timeline subjectId={orderId} created={o.createdAt} />
      <RecentRequests objectId={orderId} what="this order" />
      <SandboxClock />
    </>
  );
}
