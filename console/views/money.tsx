/** A customer's v2 quotes (with the quote form) and orders. */
import { useState } from 'preact/hooks';
import { ask, type Schema } from '../api.ts';
import { sandboxNow, useSession } from '../session.ts';
import { Action, ActionForm, Copyable, Field, Listing, Status, text, useLoad, useTicker, When, type Choice } from '../ui.tsx';
import { orderHref, short } from './common.tsx';

type QuoteType = Schema<'QuoteRequest'>['type'];

/** Each quote type's assets as a first quote would take them (a route the sandbox serves). */
const defaultAssets: Record<QuoteType, [source: string, target: string, amount: string]> = {
  onramp: ['MXN', 'USDC', '200.00'],
  offramp: ['USDC', 'MXN', '10.00'],
  swap: ['USDC', 'CETES', '10.00'],
};

/** "Another address": the wallet is typed in the field beside the choice. */
const typed = '';

export function Quotes({ organizationId }: { organizationId: string }) {
  const { ramp, version, clock, refresh } = useSession();
  const quotes = useLoad(() => ask(ramp.GET('/organization/{organizationId}/quotes', { params: { path: { organizationId }, query: { pageSize: 30 } } })), [organizationId, version]);
  // An ordered quote links its order: createOrder answers the same order for it again.
  const orders = useLoad(() => ask(ramp.GET('/orders', { params: { query: { organizationId, pageSize: 100 } } })), [organizationId, version]);
  useTicker(1000);
  // A quote expires on the partner's sandbox clock, which a freeze or an advance moves apart from real time.
  const now = sandboxNow(clock)?.getTime() ?? Date.now();
  const orderOf = new Map((orders.data?.items ?? []).map((o) => [o.quoteId, o.id]));
  return (
    <Listing
      title="Quotes"
      id="quotes"
      load={quotes}
      columns={['Quote (newest first)', 'Price', 'Expires', 'Order']}
      empty="No quotes yet."
      row={(q) => {
        const left = Math.round((Date.parse(q.expiresAt) - now) / 1000);
        const ordered = orderOf.get(q.quoteId);
        return (
          <tr key={q.quoteId} data-quote={q.quoteId}>
            <td>
              {q.type} <Copyable value={q.quoteId} what="quote id" wrap />
            </td>
            <td>
              {q.sourceAmount} {q.sourceAsset} → {q.targetAmount} {q.targetAsset}
            </td>
            <td class="expiry">
              <When at={q.expiresAt} clock="sandbox" /> {left > 0 ? <span class="muted">in {Math.floor(left / 60)}:{String(left % 60).padStart(2, '0')}</span> : <Status value="expired" />}
            </td>
            <td class="quote-order">
              {ordered ? (
                <span>
                  Ordered: <a href={orderHref(organizationId, ordered)}>order {short(ordered)}</a>
                </span>
              ) : left <= 0 ? (
                <span class="muted">Expired: the API refuses an order (quote-expired); get a new quote.</span>
              ) : (
                <Action
                  label="Create order"
                  kind="primary"
                  run={() => ask(ramp.POST('/organization/{organizationId}/order', { params: { path: { organizationId } }, body: { quoteId: q.quoteId } }))}
                  done={(order) => (location.hash = orderHref(organizationId, (order as Schema<'Order'>).id))}
                />
              )}
            </td>
          </tr>
        );
      }}
    >
      {/* A new quote's expiry may be the clock's next change due, and it records no event: every page reloads. */}
      <QuoteForm organizationId={organizationId} done={refresh} />
    </Listing>
  );
}

/** The quote form: assets follow the type, the wallet and payment account are chosen from the customer's. */
function QuoteForm({ organizationId, done }: { organizationId: string; done: () => void }) {
  const { ramp, version } = useSession();
  const [type, setType] = useState<QuoteType>('onramp');
  const [wallet, setWallet] = useState<string | undefined>(undefined);
  const wallets = useLoad(() => ask(ramp.GET('/organization/{organizationId}/wallets', { params: { path: { organizationId }, query: { pageSize: 100 } } })), [organizationId, version]);
  const accounts = useLoad(() => ask(ramp.GET('/organization/{organizationId}/payment_accounts', { params: { path: { organizationId }, query: { pageSize: 100 } } })), [organizationId, version]);
  const walletChoices: Choice[] = [...(wallets.data?.items ?? []).map((w): Choice => [w.address, `${w.address.slice(0, 12)}… (${w.blockchain}, ${w.custody})`]), [typed, 'Another address: type it below']];
  const chosenWallet = wallet ?? walletChoices[0]![0]!;
  const accountChoices: Choice[] = (accounts.data?.items ?? []).map((a) => [a.id, `${'clabe' in a.accountDetails ? String(a.accountDetails.clabe) : short(a.id)} (${a.status})`]);
  const [source, target, amount] = defaultAssets[type];
  const submit = (data: FormData) => {
    const walletAddress = text(data, 'wallet') ?? text(data, 'walletAddress');
    const body = {
      type,
      sourceAsset: text(data, 'sourceAsset') ?? '',
      targetAsset: text(data, 'targetAsset') ?? '',
      sourceAmount: text(data, 'sourceAmount') ?? '',
      ...(type === 'swap' ? {} : { rail: 'spei' as const }),
      ...(walletAddress ? { walletAddress } : {}),
      ...(type === 'offramp' && text(data, 'paymentAccountId') ? { paymentAccountId: text(data, 'paymentAccountId') } : {}),
    } as Schema<'QuoteRequest'>;
    return ask(ramp.POST('/organization/{organizationId}/quote', { params: { path: { organizationId } }, body }));
  };
  return (
    <ActionForm label="Get quote" id="create-quote" submit={submit} done={done}>
      <Field label="Type" name="type" options={['onramp', 'offramp', 'swap']} value={type} onChange={(value) => setType(value as QuoteType)} />
      <Field key={`source-${type}`} label="Source asset" name="sourceAsset" value={source} required />
      <Field key={`target-${type}`} label="Target asset" name="targetAsset" value={target} required />
      <Field key={`amount-${type}`} label="Source amount" name="sourceAmount" value={amount} required hint={type === 'onramp' ? 'Sandbox onramps: at most 500 MXN.' : undefined} />
      <Field label="Wallet" name="wallet" options={walletChoices} value={chosenWallet} onChange={setWallet} hint={type === 'onramp' ? 'Receives the tokens.' : 'Sends the tokens.'} />
      {chosenWallet === typed && <Field label="Wallet address" name="walletAddress" hint="Any address of the chain: it need not be registered." />}
      {type === 'offramp' && (
        accountChoices.length > 0 ? (
          <Field label="Payment account (receives the pesos)" name="paymentAccountId" options={accountChoices} hint="Ready as a destination before it is quoted." />
        ) : (
          <p class="muted">An offramp pays into a payment account: register one above first.</p>
        )
      )}
    </ActionForm>
  );
}

export function Orders({ organizationId }: { organizationId: string }) {
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
          <td>
            <When at={o.updatedAt} clock="sandbox" />
          </td>
        </tr>
      )}
    />
  );
}
