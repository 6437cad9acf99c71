/** One organization's page: its verification, payment accounts and wallets; money and v1 objects from their own files. */
import { everyValueOf } from '../../server/shared/contractEnums.ts';
import { ask, type Schema } from '../api.ts';
import { useSession } from '../session.ts';
import { Action, ActionForm, ButtonRow, Copyable, Crumbs, ErrorText, Field, Listing, Loading, Section, Status, text, useLoad } from '../ui.tsx';
import { SandboxClock } from './clock.tsx';
import { Orders, Quotes } from './money.tsx';
import { loadVerification } from './organizations.tsx';
import { RecentRequests } from './requests.tsx';
import { V1BankAccounts, V1Orders, V1Swaps } from './v1.tsx';
import type { Organization as Org } from './common.tsx';

type Verification = Schema<'Kyc'> | Schema<'Kyb'>;
// The contract's list, bound to its type: tsc refuses a value too many or too few.
const blockchains = everyValueOf<Schema<'Blockchain'>>()(['solana', 'ethereum', 'polygon', 'base']);

export function Organization({ organizationId }: { organizationId: string }) {
  const { ramp, partner, version } = useSession();
  const organization = useLoad(() => ask(ramp.GET('/organization/{organizationId}', { params: { path: { organizationId } } })), [organizationId]);
  const org = organization.data;
  const verification = useLoad(() => (org ? loadVerification(ramp, org) : Promise.resolve(undefined)), [org, version]);
  if (organization.error) return <ErrorText error={organization.error} />;
  if (!org) return <Loading />;
  const isCustomer = org.organizationId !== partner.organizationId;
  return (
    <>
      <Crumbs trail={[['#/', 'Organizations']]} here={org.displayName} />
      <h1 tabIndex={-1}>{org.displayName}</h1>
      <VerificationSection organization={org} verification={verification.data} error={verification.error} reload={verification.reload} />
      <SandboxClock />
      <PaymentAccounts organizationId={organizationId} approved={verification.data?.status === 'approved'} kind={org.type === 'personal' ? 'KYC' : 'KYB'} />
      <Wallets organizationId={organizationId} />
      <Quotes organizationId={organizationId} />
      <Orders organizationId={organizationId} />
      {isCustomer && <V1Orders customerId={organizationId} />}
      {isCustomer && <V1Swaps customerId={organizationId} />}
      {isCustomer && <V1BankAccounts customerId={organizationId} />}
      <RecentRequests objectId={organizationId} what="this organization" />
    </>
  );
}

/** `approved` and `denied` are final (simulateKyc: 409 conflict after them): no decision is offered then. */
const isFinal = (status: string | undefined) => status === 'approved' || status === 'denied';

function VerificationSection(props: { organization: Org; verification: Verification | undefined; error: unknown; reload: () => void }) {
  const { ramp } = useSession();
  const { organization, verification } = props;
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
          <Status value={verification?.status} />
        </dd>
        <dt>Id</dt>
        <dd>
          <Copyable value={organizationId} what="organization id" />
        </dd>
        {verification && 'userMessage' in verification && verification.userMessage && (
          <>
            <dt>Message</dt>
            <dd>{verification.userMessage}</dd>
          </>
        )}
      </dl>
      {verification && isFinal(verification.status) ? (
        <p class="muted" id="verification-final">
          {kind} {verification.status}: a final decision. The API refuses another one (409 conflict).
        </p>
      ) : (
        <ButtonRow>
          <Action label={`Approve ${kind}`} kind="primary" run={() => simulate('approved')} done={props.reload} />
          <Action label={`Deny ${kind}`} kind="danger" run={() => simulate('denied')} done={props.reload} />
          {organization.type === 'personal' && <Action label="Ask for more" run={() => simulate('inProgress', true)} done={props.reload} />}
        </ButtonRow>
      )}
      {props.error !== undefined && <ErrorText error={props.error} />}
    </Section>
  );
}

function PaymentAccounts({ organizationId, approved, kind }: { organizationId: string; approved: boolean; kind: string }) {
  const { ramp, version } = useSession();
  const accounts = useLoad(() => ask(ramp.GET('/organization/{organizationId}/payment_accounts', { params: { path: { organizationId }, query: { pageSize: 100 } } })), [organizationId, version]);
  const setReady = (id: string, direction: 'source' | 'destination') => () =>
    ask(ramp.POST('/sandbox/organization/{organizationId}/payment_account/{id}/simulate', { params: { path: { organizationId, id } }, body: { action: 'setRailStatus', rail: 'spei', direction, status: 'ready' } }));
  return (
    <Listing
      title="Payment accounts"
      id="payment-accounts"
      load={accounts}
      columns={['CLABE', 'Id', 'Status', 'Rails', 'Simulate']}
      empty="No payment accounts."
      row={(a) => {
        const spei = a.rails.spei;
        const notReady = (['source', 'destination'] as const).filter((direction) => spei?.[direction] !== 'ready');
        return (
          <tr key={a.id} data-payment-account={a.id}>
            <td>{'clabe' in a.accountDetails ? <Copyable value={String(a.accountDetails.clabe)} what="CLABE" /> : '—'}</td>
            <td>
              <Copyable value={a.id} what="payment account id" wrap />
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
            <td>
              {notReady.length === 0 ? (
                <span class="muted">Both directions ready: nothing to simulate.</span>
              ) : (
                <ButtonRow>
                  {notReady.map((direction) => (
                    <Action label={`Make ${direction} ready`} name={`ready-${direction}`} run={setReady(a.id, direction)} done={accounts.reload} />
                  ))}
                </ButtonRow>
              )}
            </td>
          </tr>
        );
      }}
    >
      <ActionForm
        label="Register bank account"
        id="register-payment-account"
        submit={(data) =>
          ask(
            ramp.POST('/organization/{organizationId}/payment_account', {
              params: { path: { organizationId } },
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
        <Field label="Tax id (RFC)" name="taxId" hint={approved ? `Leave empty to use the tax id of the approved ${kind}.` : `Required until the ${kind} is approved: there is no verified tax id yet.`} />
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
      empty="No wallets: register one, or type an address when you quote."
      row={(w) => (
        <tr key={w.id} data-wallet={w.id}>
          <td>
            <Copyable value={w.address} what="wallet address" wrap />
          </td>
          <td>{w.blockchain}</td>
          <td>{w.custody}</td>
        </tr>
      )}
    >
      <ActionForm
        label="Register external wallet"
        id="register-wallet"
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
