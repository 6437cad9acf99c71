/** The Organizations page: the partner, its API keys, the clock and its customers. */
import { ask, type Schema } from '../api.ts';
import { useSession } from '../session.ts';
import { ActionForm, Copyable, Field, Listing, Section, Status, text, useLoad, When } from '../ui.tsx';
import { SandboxClock } from './clock.tsx';
import { organizationHref, type Organization } from './common.tsx';

export function Organizations() {
  const { ramp, partner, version } = useSession();
  const customers = useLoad(() => ask(ramp.GET('/organizations', { params: { query: { pageSize: 100 } } })), [version]);
  return (
    <>
      <h1 tabIndex={-1}>Organizations</h1>
      <Section title="Your organization" id="partner">
        <OrganizationSummary organization={partner} />
      </Section>
      <ApiKeys organizationId={partner.organizationId} />
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
              <a href={organizationHref(c.organizationId)}>{c.displayName}</a>
            </td>
            <td>{c.type}</td>
            <td>
              <VerificationStatus organization={c} />
            </td>
            <td>
              <When at={c.createdAt} clock="sandbox" />
            </td>
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
        <a href={organizationHref(organization.organizationId)}>{organization.displayName}</a>
      </dd>
      <dt>Id</dt>
      <dd>
        <Copyable value={organization.organizationId} what="organization id" />
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

/** The partner's API keys by their prefixes (listApiKeys shows no more of a key). */
function ApiKeys({ organizationId }: { organizationId: string }) {
  const { ramp } = useSession();
  const keys = useLoad(() => ask(ramp.GET('/organization/{organizationId}/api_keys', { params: { path: { organizationId }, query: { pageSize: 100 } } })), [organizationId]);
  return (
    <Listing
      title="API keys"
      id="api-keys"
      load={keys}
      columns={['Key prefix', 'Created', 'Last used']}
      empty="No active keys."
      row={(k) => (
        <tr key={k.id} data-api-key={k.id}>
          <td>
            <Copyable value={k.keyPrefix} what="key prefix" />
          </td>
          <td>
            <When at={k.createdAt} clock="sandbox" />
          </td>
          <td>
            <When at={k.lastUsedAt} clock="sandbox" />
          </td>
        </tr>
      )}
    />
  );
}

export function loadVerification(ramp: ReturnType<typeof useSession>['ramp'], organization: Organization): Promise<Schema<'Kyc'> | Schema<'Kyb'>> {
  const path = { params: { path: { organizationId: organization.organizationId } } };
  return organization.type === 'personal' ? ask(ramp.GET('/organization/{organizationId}/kyc', path)) : ask(ramp.GET('/organization/{organizationId}/kyb', path));
}

function VerificationStatus({ organization }: { organization: Organization }) {
  const { ramp, version } = useSession();
  const verification = useLoad(() => loadVerification(ramp, organization), [organization.organizationId, version]);
  return <Status value={verification.data?.status} />;
}
