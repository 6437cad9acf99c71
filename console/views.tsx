/** The console's pages. Every read and every button is one documented operation, through @ramp/client. */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { everyValueOf } from '../server/shared/contractEnums.ts';
import { orderSimulationApplies } from '../server/features/orders/machine.ts';
import { canMoveBankAccount, v1BankAccountStatuses, type V1BankAccountStatus } from '../server/features/v1/bankAccounts/machine.ts';
import { v1OrderSimulationApplies } from '../server/features/v1/orders/machine.ts';
import { v1SwapSimulationApplies } from '../server/features/v1/swaps/machine.ts';
import { ask, formatTime, type Schema } from './api.ts';
import { sandboxNow, useSession, type SandboxEvent } from './session.ts';
import { Action, ActionForm, Empty, ErrorText, Field, Listing, Loading, type Loaded, Section, Status, text, useLoad, useTicker } from './ui.tsx';

type Organization = Schema<'Organization'>;
type OrderSimulation = Schema<'SimulateOrderRequest'>['action'];
type V1OrderSimulation = Schema<'V1SimulateOrderRequest'>['action'];
type V1SwapSimulation = Schema<'V1SimulateSwapRequest'>['action'];

// The contract's lists, bound to its types: tsc refuses a value too many or too few.
const orderSimulations = everyValueOf<OrderSimulation>()(['confirmSourceFunds', 'deliver', 'makeClaimable', 'completeClaim', 'fail', 'expireFunding', 'refund', 'replaceFundingInstructions']);
const v1OrderSimulations = everyValueOf<V1OrderSimulation>()(['burnConfirmed', 'tokensDelivered', 'fiatSent', 'reversalWindowPassed', 'fail', 'expireTransaction']);
const v1SwapSimulations = everyValueOf<V1SwapSimulation>()(['sendConfirmed', 'fundsReceived', 'delivered', 'fail', 'expireTransaction']);
const blockchains = everyValueOf<Schema<'Blockchain'>>()(['solana', 'ethereum', 'polygon', 'base']);
const v2EventTypes = everyValueOf<Schema<'WebhookEventType'>>()(['orderUpdated', 'paymentAccountUpdated', 'kycUpdated', 'kybUpdated']);
const v1EventTypes = everyValueOf<Schema<'V1WebhookEventType'>>()(['order_updated', 'swap_updated', 'customer_updated', 'kyc_updated', 'kyb_updated', 'bank_account_updated']);

const short = (id: string) => id.slice(0, 8);
const orderHref = (organizationId: string, orderId: string) => `#/organization/${organizationId}/order/${orderId}`;

// ─── Organizations ────────────────────────────────────────────────────────────────────────

export function Organizations() {
  const { ramp, partner, version } = useSession();
  const customers = useLoad(() => ask(ramp.GET('/organizations', { params: { query: { pageSize: 100 } } })), [version]);
  return (
    <>
      <h1 tabIndex={-1}>Organizations</h1>
      <Section title="Your organization" id="partner">
        <OrganizationSummary organization={partner} />
      </Section>
      <SandboxClock />
      <Listing
        title="Customers"
        id="customers"
        load={customers}
        loading
        caption="Customer organizations, newest first"
        columns={['Name', 'Type', 'Verification', 'Created']}
        empty="No customers yet: create one above."
        row={(c) => (
          <tr key={c.organizationId} data-organization={c.organizationId}>
            <td>
              <a href={`#/organization/${c.organizationId}`}>{c.displayName}</a>
            </td>
            <td>{c.type}</td>
            <td>
              <VerificationStatus organization={c} />
            </td>
            <td>{formatTime(c.createdAt)}</td>
          </tr>
        )}
      >
        <ActionForm
          label="Create customer"
          id="create-customer"
          submit={(data) =>
            ask(ramp.POST('/ramp/organization', { body: { displayName: text(data, 'displayName') ?? '', type: (text(data, 'type') ?? 'personal') as 'personal' | 'business' } }))
          }
          done={() => customers.reload()}
        >
          <Field label="Name" name="displayName" required />
          <Field label="Type" name="type" options={['personal', 'business']} value="personal" />
        </ActionForm>
      </Listing>
    </>
  );
}

function OrganizationSummary({ organization }: { organization: Organization }) {
  return (
    <dl class="facts">
      <dt>Name</dt>
      <dd>
        <a href={`#/organization/${organization.organizationId}`}>{organization.displayName}</a>
      </dd>
      <dt>Id</dt>
      <dd>
        <code>{organization.organizationId}</code>
      </dd>
      <dt>Type</dt>
      <dd>{organization.type}</dd>
      <dt>{organization.type === 'personal' ? 'KYC' : 'KYB'}</dt>
      <dd>
        <VerificationStatus organization={organization} />
      </dd>
    </dl>
  );
}

function loadVerification(ramp: ReturnType<typeof useSession>['ramp'], organization: Organization): Promise<Schema<'Kyc'> | Schema<'Kyb'>> {
  const path = { params: { path: { organizationId: organization.organizationId } } };
  return organization.type === 'personal' ? ask(ramp.GET('/organization/{organizationId}/kyc', path)) : ask(ramp.GET('/organization/{organizationId}/kyb', path));
}

function VerificationStatus({ organization }: { organization: Organization }) {
  const { ramp, version } = useSession();
  const verification = useLoad(() => loadVerification(ramp, organization), [organization.organizationId, version]);
  return <Status value={verification.data?.status} />;
}

// ─── The sandbox clock ────────────────────────────────────────────────────────────────────

/** The advances a partner reaches for most: past a quote (5 min), an order's funding deadline (1 h), a day. */
const presetAdvances: [label: string, by: string][] = [
  ['+1 min', 'PT1M'],
  ['+5 min', 'PT5M'],
  ['+1 h', 'PT1H'],
  ['+1 day', 'P1D'],
];

/**
 * The partner's sandbox clock: its time (moving while it runs, still while frozen), the
 * freeze/run toggle (setSandboxClock) and advances (advanceSandboxClock), with the last
 * advance's answer. An advance changes objects without a webhook of every kind (a quote
 * expiring records no event), so every page reloads after one.
 */
function SandboxClock() {
  const { ramp, clock: reading, refresh } = useSession();
  const [answer, setAnswer] = useState<Schema<'SandboxClockAdvance'> | undefined>(undefined);
  useTicker(1000);
  // A page that shows the clock reads it afresh: what was created since may be due next.
  useEffect(() => reading.reload(), [reading.reload]);
  const clock = reading.clock;
  const now = sandboxNow(reading);
  const advance = (by: string) => ask(ramp.POST('/sandbox/clock/advance', { body: { by } }));
  const advanced = (value: unknown) => {
    const result = value as Schema<'SandboxClockAdvance'>;
    setAnswer(result);
    reading.set(result.clock);
    refresh();
  };
  return (
    <Section title="Sandbox clock" id="clock">
      {reading.error !== undefined && <ErrorText error={reading.error} />}
      {!clock || !now ? (
        <Loading />
      ) : (
        <>
          <dl class="facts">
            <dt>Sandbox time</dt>
            <dd id="clock-now">
              <time dateTime={now.toISOString()}>{formatTime(now.toISOString())}</time>
            </dd>
            <dt>State</dt>
            <dd id="clock-state">
              <Status value={clock.frozen ? 'frozen' : 'running'} /> <span class="muted">{clock.frozen ? 'nothing happens by itself until you advance it' : 'time passes as in real life'}</span>
            </dd>
            <dt>Next change due</dt>
            <dd id="clock-next-due">{clock.nextDueAt ? <time dateTime={clock.nextDueAt}>{formatTime(clock.nextDueAt)}</time> : <span class="muted">nothing scheduled</span>}</dd>
          </dl>
          <div class="buttons">
            <Action
              label={clock.frozen ? 'Let it run' : 'Freeze clock'}
              name="toggle-clock"
              kind="primary"
              run={() => ask(ramp.PUT('/sandbox/clock', { body: { frozen: !clock.frozen } }))}
              done={(value) => reading.set(value as Schema<'SandboxClock'>)}
            />
            {presetAdvances.map(([label, by]) => (
              <Action label={label} name={`advance-${by}`} run={() => advance(by)} done={advanced} />
            ))}
          </div>
          <ActionForm label="Advance" id="advance-clock" submit={(data) => advance(text(data, 'by') ?? '')} done={advanced}>
            <Field label="Advance by (ISO 8601 duration)" name="by" required hint="For example PT5M1S, PT90M or P2D." />
          </ActionForm>
          {answer && <AdvanceAnswer answer={answer} />}
        </>
      )}
    </Section>
  );
}

/** What an advance applied, as advanceSandboxClock answered it: the counts per kind, then each change at its due instant. */
function AdvanceAnswer({ answer }: { answer: Schema<'SandboxClockAdvance'> }) {
  const link = (t: Schema<'SandboxTransition'>) =>
    t.kind === 'orderFundingExpired' || t.kind === 'orderCompleted' ? (
      <a href={orderHref(t.organizationId, t.id)}>{short(t.id)}</a>
    ) : t.kind === 'v1TokensDelivered' || t.kind === 'v1OfframpFinalized' ? (
      <a href={`#/v1order/${t.id}`}>{short(t.id)}</a>
    ) : (
      <code>{short(t.id)}</code>
    );
  return (
    <div id="advance-answer" role="status">
      <h3>
        Last advance: to <time dateTime={answer.clock.now}>{formatTime(answer.clock.now)}</time>, {answer.transitions.length} change(s) applied
      </h3>
      <dl class="facts counts">
        {Object.entries(answer.counts).map(([kind, count]) => (
          <>
            <dt>{kind}</dt>
            <dd data-count={kind}>{count}</dd>
          </>
        ))}
      </dl>
      {answer.transitions.length > 0 && (
        <table>
          <caption class="sr-only">Changes applied, in the order they fell due</caption>
          <thead>
            <tr>
              <th scope="col">Change</th>
              <th scope="col">Object</th>
              <th scope="col">Due at</th>
            </tr>
          </thead>
          <tbody>
            {answer.transitions.map((t) => (
              <tr key={`${t.kind}:${t.id}`} data-transition={t.id}>
                <td>{t.kind}</td>
                <td>{link(t)}</td>
                <td>
                  <time dateTime={t.dueAt}>{formatTime(t.dueAt)}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

// ─── One organization ─────────────────────────────────────────────────────────────────────

export function Organization({ organizationId }: { organizationId: string }) {
  const { ramp, partner, version } = useSession();
  const organization = useLoad(() => ask(ramp.GET('/organization/{organizationId}', { params: { path: { organizationId } } })), [organizationId]);
  if (organization.error) return <ErrorText error={organization.error} />;
  if (!organization.data) return <Loading />;
  const org = organization.data;
  const isCustomer = org.organizationId !== partner.organizationId;
  return (
    <>
      <p class="crumbs">
        <a href="#/">Organizations</a> ›
      </p>
      <h1 tabIndex={-1}>{org.displayName}</h1>
      <Verification organization={org} />
      <SandboxClock />
      <PaymentAccounts organizationId={organizationId} />
      <Wallets organizationId={organizationId} />
      <Quotes organizationId={organizationId} />
      <Orders organizationId={organizationId} />
      {isCustomer && <V1Orders customerId={organizationId} />}
      {isCustomer && <V1Swaps customerId={organizationId} />}
      {isCustomer && <V1BankAccounts customerId={organizationId} />}
      <span hidden>{version}</span>
    </>
  );
}

function Verification({ organization }: { organization: Organization }) {
  const { ramp, version } = useSession();
  const verification = useLoad(() => loadVerification(ramp, organization), [organization.organizationId, version]);
  const organizationId = organization.organizationId;
  const kind = organization.type === 'personal' ? 'KYC' : 'KYB';
  const simulate = (status: Schema<'VerificationStatus'>, needsWork = false) =>
    organization.type === 'personal'
      ? ask(ramp.POST('/sandbox/organization/{organizationId}/kyc', { params: { path: { organizationId } }, body: needsWork ? { status, needsWork, userMessage: 'Please send a recent proof of address.' } : { status } }))
      : ask(ramp.POST('/sandbox/organization/{organizationId}/kyb', { params: { path: { organizationId } }, body: { status } }));
  return (
    <Section title={`Verification (${kind})`} id="verification">
      <dl class="facts">
        <dt>Status</dt>
        <dd id="verification-status">
          <Status value={verification.data?.status} />
        </dd>
        <dt>Id</dt>
        <dd>
          <code>{organizationId}</code>
        </dd>
        {verification.data && 'userMessage' in verification.data && verification.data.userMessage && (
          <>
            <dt>Message</dt>
            <dd>{verification.data.userMessage}</dd>
          </>
        )}
      </dl>
      <div class="buttons">
        <Action label={`Approve ${kind}`} kind="primary" run={() => simulate('approved')} done={verification.reload} />
        <Action label={`Deny ${kind}`} kind="danger" run={() => simulate('denied')} done={verification.reload} />
        {organization.type === 'personal' && <Action label="Ask for more" run={() => simulate('inProgress', true)} done={verification.reload} />}
      </div>
      {verification.error !== undefined && <ErrorText error={verification.error} />}
    </Section>
  );
}

function PaymentAccounts({ organizationId }: { organizationId: string }) {
  const { ramp, version } = useSession();
  const accounts = useLoad(() => ask(ramp.GET('/organization/{organizationId}/payment_accounts', { params: { path: { organizationId }, query: { pageSize: 100 } } })), [organizationId, version]);
  const path = { organizationId };
  return (
    <Listing
      title="Payment accounts"
      id="payment-accounts"
      load={accounts}
      columns={['CLABE', 'Status', 'Rails', 'Simulate']}
      empty="No payment accounts."
      row={(a) => (
        <tr key={a.id} data-payment-account={a.id}>
          <td>
            <code>{'clabe' in a.accountDetails ? String(a.accountDetails.clabe) : short(a.id)}</code>
          </td>
          <td>
            <Status value={a.status} />
          </td>
          <td>
            {Object.entries(a.rails).map(([rail, state]) => (
              <div>
                {rail}: source <Status value={state?.source} />, destination <Status value={state?.destination} />
              </div>
            ))}
          </td>
          <td class="buttons">
            {(['source', 'destination'] as const).map((direction) => (
              <Action
                label={`Make ${direction} ready`}
                run={() =>
                  ask(ramp.POST('/sandbox/organization/{organizationId}/payment_account/{id}/simulate', { params: { path: { organizationId, id: a.id } }, body: { action: 'setRailStatus', rail: 'spei', direction, status: 'ready' } }))
                }
                done={accounts.reload}
              />
            ))}
          </td>
        </tr>
      )}
    >
      <ActionForm
        label="Register bank account"
        id="register-payment-account"
        submit={(data) =>
          ask(
            ramp.POST('/organization/{organizationId}/payment_account', {
              params: { path },
              body: {
                kind: 'bankAccount',
                rail: 'spei',
                accountDetails: { clabe: text(data, 'clabe') ?? '' },
                registrationInfo: { accountHolderName: text(data, 'holder') ?? '', ...(text(data, 'taxId') ? { taxId: text(data, 'taxId') } : {}) },
              },
            }),
          )
        }
        done={accounts.reload}
      >
        <Field label="CLABE (18 digits)" name="clabe" required />
        <Field label="Account holder" name="holder" required />
        <Field label="Tax id (RFC)" name="taxId" hint="Leave empty to use the verified tax id." />
      </ActionForm>
    </Listing>
  );
}

function Wallets({ organizationId }: { organizationId: string }) {
  const { ramp, version } = useSession();
  const wallets = useLoad(() => ask(ramp.GET('/organization/{organizationId}/wallets', { params: { path: { organizationId }, query: { pageSize: 100 } } })), [organizationId, version]);
  return (
    <Listing
      title="Wallets"
      id="wallets"
      load={wallets}
      columns={['Address', 'Blockchain', 'Custody']}
      empty="No wallets."
      row={(w) => (
        <tr key={w.id}>
          <td>
            <code class="wrap">{w.address}</code>
          </td>
          <td>{w.blockchain}</td>
          <td>{w.custody}</td>
        </tr>
      )}
    >
      <ActionForm
        label="Register external wallet"
        submit={(data) =>
          ask(ramp.POST('/organization/{organizationId}/wallet', { params: { path: { organizationId } }, body: { custody: 'external', address: text(data, 'address') ?? '', blockchain: (text(data, 'blockchain') ?? 'solana') as Schema<'Blockchain'> } }))
        }
        done={wallets.reload}
      >
        <Field label="Address" name="address" required />
        <Field label="Blockchain" name="blockchain" options={[...blockchains]} value="solana" />
      </ActionForm>
    </Listing>
  );
}

function Quotes({ organizationId }: { organizationId: string }) {
  const { ramp, version, clock } = useSession();
  const quotes = useLoad(() => ask(ramp.GET('/organization/{organizationId}/quotes', { params: { path: { organizationId }, query: { pageSize: 30 } } })), [organizationId, version]);
  useTicker(1000);
  // A quote expires on the partner's sandbox clock, which a freeze or an advance moves apart from real time.
  const now = sandboxNow(clock)?.getTime() ?? Date.now();
  return (
    <Listing
      title="Quotes"
      id="quotes"
      load={quotes}
      columns={['Quote (newest first)', 'Price', 'Expires', 'Order']}
      empty="No quotes yet."
      row={(q) => {
        const left = Math.round((Date.parse(q.expiresAt) - now) / 1000);
        return (
          <tr key={q.quoteId} data-quote={q.quoteId}>
            <td>
              {q.type} <code>{short(q.quoteId)}</code>
            </td>
            <td>
              {q.sourceAmount} {q.sourceAsset} → {q.targetAmount} {q.targetAsset}
            </td>
            <td class="expiry">
              <time dateTime={q.expiresAt}>{formatTime(q.expiresAt)}</time> {left > 0 ? <span class="muted">in {Math.floor(left / 60)}:{String(left % 60).padStart(2, '0')}</span> : <Status value="expired" />}
            </td>
            <td>
              <Action
                label="Create order"
                kind="primary"
                run={() => ask(ramp.POST('/organization/{organizationId}/order', { params: { path: { organizationId } }, body: { quoteId: q.quoteId } }))}
                done={(order) => (location.hash = orderHref(organizationId, (order as Schema<'Order'>).id))}
              />
            </td>
          </tr>
        );
      }}
    >
      <ActionForm
        label="Get quote"
        id="create-quote"
        submit={(data) => {
          const type = (text(data, 'type') ?? 'onramp') as Schema<'QuoteRequest'>['type'];
          const body = {
            type,
            sourceAsset: text(data, 'sourceAsset') ?? '',
            targetAsset: text(data, 'targetAsset') ?? '',
            sourceAmount: text(data, 'sourceAmount') ?? '',
            ...(type === 'swap' ? {} : { rail: 'spei' as const }),
            ...(text(data, 'walletAddress') ? { walletAddress: text(data, 'walletAddress') } : {}),
            ...(text(data, 'paymentAccountId') ? { paymentAccountId: text(data, 'paymentAccountId') } : {}),
          } as Schema<'QuoteRequest'>;
          return ask(ramp.POST('/organization/{organizationId}/quote', { params: { path: { organizationId } }, body }));
        }}
        done={quotes.reload}
      >
        <Field label="Type" name="type" options={['onramp', 'offramp', 'swap']} value="onramp" />
        <Field label="Source asset" name="sourceAsset" value="MXN" required />
        <Field label="Target asset" name="targetAsset" value="USDC" required />
        <Field label="Source amount" name="sourceAmount" value="200.00" required hint="Sandbox onramps: at most 500 MXN." />
        <Field label="Wallet address" name="walletAddress" hint="Receives the tokens (onramp) or sends them (offramp, swap)." />
        <Field label="Payment account id (offramp)" name="paymentAccountId" />
      </ActionForm>
    </Listing>
  );
}

function Orders({ organizationId }: { organizationId: string }) {
  const { ramp, version } = useSession();
  const orders = useLoad(() => ask(ramp.GET('/orders', { params: { query: { organizationId, pageSize: 100 } } })), [organizationId, version]);
  return (
    <Listing
      title="Orders (v2)"
      id="orders"
      load={orders}
      columns={['Order', 'Type', 'Amounts', 'Status', 'Updated']}
      empty="No orders."
      row={(o) => (
        <tr key={o.id} data-order={o.id}>
          <td>
            <a href={orderHref(organizationId, o.id)}>{short(o.id)}</a>
          </td>
          <td>{o.type}</td>
          <td>
            {o.sourceAmount} {o.sourceAsset} → {o.targetAmount} {o.targetAsset}
          </td>
          <td>
            <Status value={o.status} />
          </td>
          <td>{formatTime(o.updatedAt)}</td>
        </tr>
      )}
    />
  );
}

function V1Orders({ customerId }: { customerId: string }) {
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
function V1Swaps({ customerId }: { customerId: string }) {
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
            <code>{short(s.id)}</code>
          </td>
          <td>
            {s.sourceAmount} {s.sourceToken} → {s.targetToken}
          </td>
          <td>
            <Status value={s.status} />
          </td>
          <td class="buttons">
            {v1SwapSimulations
              .filter((action) => v1SwapSimulationApplies(s.status, action))
              .map((action) => (
                <Action label={action} name={action} run={() => ask(ramp.POST('/sandbox/ramp/swap/{id}/simulate', { params: { path: { id: s.id } }, body: { action } }))} done={swaps.reload} />
              ))}
          </td>
        </tr>
      )}
    />
  );
}

/** `bank_account_awaiting_deposit_verification` → "Set awaiting deposit verification". */
const bankAccountAction = (status: V1BankAccountStatus) => `Set ${status.replace(/^bank_account_/, '').replaceAll('_', ' ')}`;

function V1BankAccounts({ customerId }: { customerId: string }) {
  const { ramp, version } = useSession();
  const accounts = useLoad(() => ask(ramp.POST('/ramp/customer/{customer_id}/bank-accounts', { params: { path: { customer_id: customerId } }, body: { pageSize: 100 } })), [customerId, version]);
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
            <code>{a.clabe}</code>
          </td>
          <td>{a.accountLabel}</td>
          <td>
            <Status value={a.status} />
          </td>
          <td>{a.compliant ? 'yes' : 'no'}</td>
          <td class="buttons">
            {v1BankAccountStatuses
              .filter((status) => canMoveBankAccount(a.status, status))
              .map((status) => (
                <Action
                  label={bankAccountAction(status)}
                  name={status}
                  run={() =>
                    ask(
                      ramp.POST('/sandbox/ramp/bank-account/{id}/status', {
                        params: { path: { id: a.internalAccountId } },
                        // Active is verified and usable for offramps (V1SimulateBankAccountRequest's Activate example).
                        body: status === 'bank_account_active' ? { status, compliant: true } : { status },
                      }),
                    )
                  }
                  done={accounts.reload}
                />
              ))}
          </td>
        </tr>
      )}
    />
  );
}

// ─── Orders ───────────────────────────────────────────────────────────────────────────────

/** The simulators that apply to the order (the table simulateDeposit and simulateOrder refuse through). */
const applies = (order: Schema<'Order'>, action: OrderSimulation | 'deposit') => orderSimulationApplies(order.type, order.status, action);

export function OrderPage({ organizationId, orderId }: { organizationId: string; orderId: string }) {
  const { ramp, version } = useSession();
  const order = useLoad(() => ask(ramp.GET('/organization/{organizationId}/order/{id}', { params: { path: { organizationId, id: orderId } } })), [orderId, version]);
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
  const funding = o.fundingInstructions;
  return (
    <>
      <p class="crumbs">
        <a href="#/">Organizations</a> › <a href={`#/organization/${organizationId}`}>Organization</a> ›
      </p>
      <h1 tabIndex={-1}>
        Order <code>{short(o.id)}</code> <Status value={o.status} />
      </h1>
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
            <code>{o.id}</code>
          </dd>
          {funding && (
            <>
              <dt>Fund it</dt>
              <dd>
                send {funding.amount} {funding.asset} to{' '}
                <code>{funding.destination.type === 'spei' ? funding.destination.clabe : funding.destination.address}</code> before {formatTime(funding.expiresAt)}
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
      <Section title="Simulate" id="simulate">
        <div class="buttons" id="applicable-simulations">
          {all.filter((a) => applies(o, a)).map((a) => (
            <Action label={a} name={a} kind="primary" run={run(a)} done={order.reload} />
          ))}
          {all.every((a) => !applies(o, a)) && <Empty>No simulation applies to a {o.status} order.</Empty>}
        </div>
        <details>
          <summary>Other simulations (the API refuses them from {o.status})</summary>
          <div class="buttons" id="other-simulations">
            {all.filter((a) => !applies(o, a)).map((a) => (
              <Action label={a} name={a} run={run(a)} done={order.reload} />
            ))}
          </div>
        </details>
      </Section>
      <Timeline subjectId={orderId} created={o.createdAt} />
      <SandboxClock />
    </>
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
  const applies = (a: V1OrderSimulation | 'fiatReceived') => v1OrderSimulationApplies(o.type, o.status, a);
  const run = (action: V1OrderSimulation | 'fiatReceived') => () =>
    action === 'fiatReceived' ? ask(ramp.POST('/ramp/order/fiat_received', { body: { orderId: o.id } })) : ask(ramp.POST('/sandbox/ramp/order/{id}/simulate', { params: { path: { id: o.id } }, body: { action } }));
  return (
    <>
      <p class="crumbs">
        <a href="#/">Organizations</a> › <a href={`#/organization/${o.customerId}`}>Customer</a> ›
      </p>
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
          {o.depositClabe && (
            <>
              <dt>Deposit CLABE</dt>
              <dd>
                <code>{o.depositClabe}</code>
              </dd>
            </>
          )}
        </dl>
      </Section>
      <Section title="Simulate" id="simulate">
        <div class="buttons" id="applicable-simulations">
          {all.filter((a) => applies(a)).map((a) => (
            <Action label={a} name={a} kind="primary" run={run(a)} done={order.reload} />
          ))}
          {all.every((a) => !applies(a)) && <Empty>No simulation applies to a {o.status} {o.type}.</Empty>}
        </div>
        <details>
          <summary>Other simulations (the API refuses them from {o.status})</summary>
          <div class="buttons" id="other-simulations">
            {all.filter((a) => !applies(a)).map((a) => (
              <Action label={a} name={a} run={run(a)} done={order.reload} />
            ))}
          </div>
        </details>
      </Section>
      <Timeline subjectId={orderId} created={o.createdAt} />
      <SandboxClock />
    </>
  );
}

/** Every event about one object, oldest first: its status changes with their occurredAt. */
function Timeline({ subjectId, created }: { subjectId: string; created?: string }) {
  const { ramp, version } = useSession();
  const timeline = useLoad(() => ask(ramp.GET('/sandbox/events', { params: { query: { subjectId, pageSize: 100 } } })), [subjectId, version]);
  return (
    <Section title="Timeline" id="timeline">
      {timeline.error !== undefined && <ErrorText error={timeline.error} />}
      {timeline.data && timeline.data.items.length === 0 && <Empty>No status change yet.</Empty>}
      <ol class="timeline">
        {created && (
          <li>
            <time dateTime={created}>{formatTime(created)}</time> <Status value="created" /> <span class="muted">created (creation sends no event)</span>
          </li>
        )}
        {timeline.data?.items.map((e) => (
          <li key={e.eventId} data-event={e.eventId}>
            <time dateTime={e.occurredAt}>{formatTime(e.occurredAt)}</time> <Status value={statusIn(e)} /> <span class="muted">{e.eventType}</span>
            <details>
              <summary>Body</summary>
              <pre>{JSON.stringify(e.body, null, 2)}</pre>
            </details>
          </li>
        ))}
      </ol>
    </Section>
  );
}

/** The status an event's object has after it, whatever the event's shape. */
function statusIn(e: SandboxEvent): string | undefined {
  const object = (e.surface === 'v1' ? e.body[e.eventType] : Object.values(e.body).find((v) => typeof v === 'object' && v !== null)) as { status?: unknown } | undefined;
  return typeof object?.status === 'string' ? object.status : undefined;
}

// ─── Webhooks ─────────────────────────────────────────────────────────────────────────────

export function Webhooks() {
  const { ramp } = useSession();
  const v2 = useLoad(() => ask(ramp.GET('/webhook_subscriptions', { params: { query: { pageSize: 100 } } })), []);
  const v1 = useLoad(() => ask(ramp.POST('/ramp/webhooks', { body: { pageSize: 100 } })), []);
  const [secret, setSecret] = useState<string | undefined>(undefined);
  return (
    <>
      <h1 tabIndex={-1}>Webhooks</h1>
      {secret && (
        <div class="notice" role="status" id="new-secret">
          <strong>Keep this signing secret now: it is not shown again.</strong>
          <code class="wrap">{secret}</code>
        </div>
      )}
      <Subscriptions title="v2 subscriptions" id="v2-subscriptions" load={v2} surface="v2">
        <ActionForm
          label="Subscribe"
          id="create-v2-subscription"
          submit={(data) => ask(ramp.POST('/webhook_subscription', { body: { url: text(data, 'url') ?? '', eventType: (text(data, 'eventType') ?? 'orderUpdated') as Schema<'WebhookEventType'> } }))}
          done={(created) => {
            setSecret((created as { secret: string }).secret);
            v2.reload();
          }}
        >
          <Field label="URL" name="url" required hint="The sandbox accepts http:// URLs, localhost included." />
          <Field label="Event type" name="eventType" options={[...v2EventTypes]} value="orderUpdated" />
        </ActionForm>
      </Subscriptions>
      <Subscriptions title="v1 subscriptions" id="v1-subscriptions" load={v1} surface="v1">
        <ActionForm
          label="Subscribe (v1)"
          submit={(data) => ask(ramp.POST('/ramp/webhook', { body: { url: text(data, 'url') ?? '', eventType: (text(data, 'eventType') ?? 'order_updated') as Schema<'V1WebhookEventType'> } }))}
          done={(created) => {
            setSecret((created as { secret: string }).secret);
            v1.reload();
          }}
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
  children: ComponentChildren;
}) {
  return (
    <Listing
      title={props.title}
      id={props.id}
      load={props.load}
      loading
      columns={['Event type', 'URL', 'Created']}
      empty="No subscriptions."
      row={(s) => (
        <tr key={s.id} data-subscription={s.id}>
          <td>
            <a href={`#/webhooks/${s.id}/${props.surface}`}>{s.eventType}</a>
          </td>
          <td>
            <code class="wrap">{s.url}</code>
          </td>
          <td>{formatTime(s.createdAt)}</td>
        </tr>
      )}
    >
      {props.children}
    </Listing>
  );
}

export function Deliveries({ subscriptionId, surface }: { subscriptionId: string; surface: 'v1' | 'v2' }) {
  const { ramp, version } = useSession();
  // Attempts are not events: while the page is open it reads them again every second.
  const tick = useTicker(1000);
  const deliveries = useLoad(() => ask(ramp.GET('/sandbox/webhook_subscription/{id}/deliveries', { params: { path: { id: subscriptionId }, query: { pageSize: 30 } } })), [subscriptionId, version, tick]);
  return (
    <>
      <p class="crumbs">
        <a href="#/webhooks">Webhooks</a> ›
      </p>
      <h1 tabIndex={-1}>Deliveries</h1>
      {deliveries.error !== undefined && <ErrorText error={deliveries.error} />}
      {deliveries.data && deliveries.data.items.length === 0 && <Empty>No deliveries yet.</Empty>}
      {deliveries.data?.items.map((d) => (
        <details class="card delivery" key={d.id} data-delivery={d.id} data-event-id={d.eventId}>
          <summary>
            <span>{d.eventType}</span> <Status value={d.status} /> <span class="muted">{formatTime(d.createdAt)}</span> <span class="muted">{d.attempts.length} attempt(s)</span>
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
              <code>{d.eventId}</code>
            </dd>
            {d.nextAttemptAt && (
              <>
                <dt>Next attempt</dt>
                <dd>{formatTime(d.nextAttemptAt)}</dd>
              </>
            )}
          </dl>
          <h3>Body sent</h3>
          <pre class="body">{d.body}</pre>
          <h3>Attempts</h3>
          {d.attempts.length === 0 ? (
            <Empty>No attempt yet.</Empty>
          ) : (
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
                {d.attempts.map((a) => (
                  <tr key={a.number} class="attempt">
                    <td>{a.number}</td>
                    <td>{formatTime(a.startedAt)}</td>
                    <td>{a.durationMs === null ? '—' : `${a.durationMs} ms`}</td>
                    <td class="answer">{a.statusCode !== null ? `HTTP ${a.statusCode}` : (a.error ?? 'under way')}</td>
                    <td>
                      <code class="wrap excerpt">{a.responseExcerpt ?? ''}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {surface === 'v2' && (
            <div class="buttons">
              <Action label="Re-send this event" run={() => ask(ramp.POST('/sandbox/webhook_event/{eventId}/resend', { params: { path: { eventId: d.eventId } } }))} done={deliveries.reload} />
            </div>
          )}
        </details>
      ))}
    </>
  );
}

// ─── Events ───────────────────────────────────────────────────────────────────────────────

export function EventFeed() {
  const { events } = useSession();
  return (
    <>
      <h1 tabIndex={-1}>Events</h1>
      <p>Every change the sandbox recorded for your organization and its customers, newest first, as it happens.</p>
      {events.length === 0 ? (
        <Empty>No events yet.</Empty>
      ) : (
        <ol class="timeline" reversed>
          {[...events].reverse().map((e) => (
            <li key={e.eventId}>
              <time dateTime={e.occurredAt}>{formatTime(e.occurredAt)}</time> <span>{e.eventType}</span> <Status value={statusIn(e)} />{' '}
              {e.eventType === 'orderUpdated' ? <a href={orderHref(e.organizationId, e.subjectId)}>order {short(e.subjectId)}</a> : e.eventType === 'order_updated' ? <a href={`#/v1order/${e.subjectId}`}>order {short(e.subjectId)}</a> : <code>{short(e.subjectId)}</code>}
              <details>
                <summary>Body</summary>
                <pre>{JSON.stringify(e.body, null, 2)}</pre>
              </details>
            </li>
          ))}
        </ol>
      )}
    </>
  );
}
