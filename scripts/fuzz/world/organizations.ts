/**
 * The world's organizations: the approved customers B (a business) and C (a person), and
 * people and businesses at every verification stage, a pool for each operation that moves them.
 */
import { example, range, type Api, type Context } from './context.ts';

type Stage = 'notStarted' | 'inProgress' | 'submitted';

const child = async (api: Api, type: 'personal' | 'business', displayName: string) =>
  (await api.post('/ramp/organization', { displayName, type })).organizationId as string;

// People and businesses at every stage, each pool for one operation. A submitted KYC has
// the contract's example submission; inProgress comes from the simulator.
const person = async (api: Api, stage: Stage) => {
  const id = await child(api, 'personal', `Fuzz person ${stage}`);
  if (stage === 'inProgress') await api.post(`/sandbox/organization/${id}/kyc`, { status: 'inProgress' });
  if (stage === 'submitted') await api.put(`/organization/${id}/kyc`, example('submitKyc'));
  return id;
};
const business = async (api: Api, stage: Stage) => {
  const id = await child(api, 'business', `Fuzz business ${stage}`);
  if (stage === 'inProgress') await api.post(`/sandbox/organization/${id}/kyb`, { status: 'inProgress' });
  if (stage === 'submitted') await api.put(`/organization/${id}/kyb`, example('submitKyb'));
  return id;
};

/** B and C, approved, with the organizations' and date-times' pools and their reads. */
export async function organizations({ api, P, add, request }: Context) {
  // --- Organizations. ---
  const B = await child(api, 'business', 'Fuzz Business SA de CV');
  const C = await child(api, 'personal', 'Ana Fuzz');
  await api.post(`/sandbox/organization/${B}/kyb`, { status: 'approved' });
  await api.post(`/sandbox/organization/${C}/kyc`, { status: 'approved' });
  add('organizations', P, B, C);
  add('customers', B, C);
  // A UUID in upper case names the same object (v1.yaml and v2.yaml, Dates and identifiers):
  // the partner and the approved person are drawn in upper case too, and reach the same
  // answers; their URNs are not a UUID's string form, and each is the surface's 400.
  add('organizations', P.toUpperCase(), C.toUpperCase(), `urn:uuid:${P}`);
  add('customers', C.toUpperCase(), `URN:UUID:${C.toUpperCase()}`);
  // Date-times the format lets through: real instants in every RFC 3339 spelling, leap seconds
  // (the second after them), and ones that name no instant (each the surface's 400).
  add('date-times', '2026-12-31T23:59:60Z', '2026-06-30T23:59:60.5z', '2026-01-01t00:00:00.123456789+05:30', '2026-03-01T00:00:00-23:59');
  add('date-times', '2026-13-01T00:00:00Z', '2026-12-39T00:00:00Z', '2026-12-01T29:00:00Z', '2026-12-01T00:00:00+99:99', '2026-02-29T00:00:00Z', '2026-12-30T23:59:60Z');
  add('money-organization', C);
  request('listOrganizations', {});
  request('getOrganization', { path: { organizationId: C } });
  request('v1CreateOrganization', { body: { displayName: 'Fuzz example person', type: 'personal' } });
  request('v1RenameOrganization', { path: { org_id: await child(api, 'personal', 'Fuzz example to rename') }, body: { displayName: 'Fuzz example renamed' } });
  request('v1ListCustomers', {});
  request('v1SearchCustomers', { body: {} });
  request('v1GetCustomer', { path: { customer_id: C } });
  request('v1GetCustomerKyc', { path: { customer_id: C } });
  request('getKyc', { path: { organizationId: C } });
  request('getKyb', { path: { organizationId: B } });
  return { B, C };
}

/** People and businesses at every stage, the values a submission's checks accept, and each submission and decision's request. */
export async function verification({ api, add, request }: Context, B: string, C: string) {
  const stages = ['notStarted', 'inProgress', 'submitted'] as const;
  for (const i of range(6)) {
    add('kyc-open', await person(api, stages[i % 3]!));
    add('kyc-open-v1', await person(api, stages[i % 3]!));
    add('kyb-open', await business(api, stages[i % 3]!));
    add('kyc-decide', await person(api, stages[i % 3]!));
    add('kyb-decide', await business(api, stages[i % 3]!));
    add('kyb-decide-v1', await business(api, stages[i % 3]!));
  }
  // Values a submission's checks accept where the schema cannot say which (RFC and CURP
  // shapes, ISO country codes, adult birth dates, a legal representative among the people).
  add('country-codes', 'MX');
  add('person-tax-ids', 'GOMM900101AB3', 'GOMM900101HDFMRR05');
  add('company-tax-ids', 'TEG150312QX7');
  add('adult-birth-dates', '1990-01-01', '1982-07-19');
  add('past-dates', '2015-03-12');
  add('representative-roles', 'legalRepresentative');
  // The v1 KYC simulator decides only a submitted KYC.
  for (const _ of range(8)) add('kyc-submitted-v1', await person(api, 'submitted'));
  // Each submission and decision of the examples on a person or business of its own.
  request('submitKyc', { path: { organizationId: await person(api, 'notStarted') }, body: example('submitKyc') });
  request('submitKyb', { path: { organizationId: await business(api, 'notStarted') }, body: example('submitKyb') });
  request('v1SubmitCustomerKyc', { path: { customer_id: await person(api, 'notStarted') }, body: example('v1SubmitCustomerKyc') });
  request('simulateKyc', { path: { organizationId: await person(api, 'submitted') }, body: { status: 'approved' } });
  request('simulateKyb', { path: { organizationId: await business(api, 'submitted') }, body: { status: 'approved' } });
  request('v1SimulateCustomerKyc', { path: { customer_id: await person(api, 'submitted') }, body: { status: 'kyc_approved' } });
  request('v1SimulateKyb', { path: { org_id: await business(api, 'submitted') }, body: { status: 'approved' } });
  // A decision that stays where it is (approved → approved) is a 200 too.
  add('kyc-decide', C);
  add('kyb-decide', B);
  add('kyb-decide-v1', B);
}
