/**
 * The small world the code samples run in (codeSamples.test.ts): made through the API on a
 * fresh sandbox, as a partner's own setup would, so every path parameter of a sample names an
 * object that exists. Each sample shows its operation's documented example (or a `<name>`
 * placeholder where the contract documents none); the test replaces those texts with this
 * world's ids, per operation: an operation that changes or deletes its object (cancel, delete,
 * simulate) gets one of its own, so the samples run in any order.
 *
 * `expectations` is the table of the operations that cannot answer their documented success
 * in a fresh world, each with the documented status it answers instead and why.
 */
import { randomUUID } from 'node:crypto';
import { exampleText } from '../../scripts/code-samples.ts';
import { expectStatus } from '../support/api.ts';
import { deref, type Json } from '../support/documents.ts';
import { createCustomer, order, quote, readyAccount } from '../support/fixtures.ts';
import { signerKeys } from '../support/money.ts';
import type { TestServer } from '../support/server.ts';
import { createBankAccount, randomSolanaAddress } from '../support/v1Money.ts';

/** Operations whose documented success no fresh sandbox can give, with the documented status they answer and why. */
export const expectations: Record<string, { status: number[]; why: string }> = {
  setJwtIssuer: { status: [400], why: 'its first example registers a jwksUri on auth.partner.example, which the sandbox fetches at once and cannot reach: validation-error' },
  createToken: { status: [400], why: 'its example assertion is a JWT no registered key signed (the partner signs one with its own private key): invalid_grant' },
  launchSession: { status: [400], why: 'the same unsigned example assertion: the error page with invalid_grant' },
  ...Object.fromEntries(
    ['getKycPage', 'getKybPage', 'getOnrampPage', 'getOfframpPage', 'getSwapPage', 'getAccountPage'].map((id) => [
      id,
      { status: [401], why: 'a browser page: it needs the session cookie a launch with a partner-signed JWT sets, so a request without it gets the "Not signed in" page' },
    ]),
  ),
};

/** The documented success statuses of an operation, or the status the table names. */
export function expectedStatus(operation: Json): number[] {
  const listed = expectations[operation.operationId as string];
  if (listed) return listed.status;
  return Object.keys(operation.responses ?? {}).filter((s) => /^2\d\d$/.test(s)).map(Number);
}

/** The status a sample printed first: curl's status line (`HTTP/1.1 201 Created`), or the number the others print. */
export function statusOf(output: string): number | undefined {
  const match = /^(?:HTTP\/[\d.]+ )?(\d{3})\b/m.exec(output);
  return match ? Number(match[1]) : undefined;
}

export interface World {
  /** The partner's key: the samples read it from RAMP_API_KEY. */
  key: string;
  /** A sample's source with its operation's example ids replaced by this world's. */
  substitute(source: string, path: string, method: string): string;
}

/** What a path parameter names: `{id}` by the segment before it (v1's with a `v1` prefix), the others by their name. */
function kindOf(path: string, name: string): string {
  if (name !== 'id') return { customer_id: 'v1customer', org_id: 'v1org' }[name] ?? name;
  const segment = /\/([^/{}]+)\/\{id\}/.exec(path)![1]!;
  return /^\/(sandbox\/)?ramp\//.test(path) ? `v1${segment}` : segment;
}

const pathParameters = (bundle: Json, path: string, operation: Json): Json[] =>
  [...(bundle.paths[path].parameters ?? []), ...(operation.parameters ?? [])].map((p: Json) => deref(bundle, p)).filter((p: Json) => p.in === 'path');

type Objects = { values: Record<string, string>; own: Record<string, Record<string, string>> };

/**
 * The v2 objects of the world, of the approved customer `person`: `values` by kind, and `own`
 * objects for the operations that change or use up theirs (by operationId, then kind).
 */
async function v2Objects(server: TestServer, person: string): Promise<Objects> {
  const api = server.api;
  const account = await readyAccount(server, person);
  const at = (organizationId: string) => ({ params: { path: { organizationId } } });
  const walletAddress = randomSolanaAddress();
  expectStatus(await api.POST('/organization/{organizationId}/wallet', { ...at(person), body: { custody: 'external', address: walletAddress, blockchain: 'solana' } }), 201);
  const onramp = { type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: '200.00', rail: 'spei', walletAddress } as const;
  const newOrder = async () => (await order(server, person, onramp)).id;
  const simulate = async (id: string, action: 'confirmSourceFunds' | 'makeClaimable') =>
    expectStatus(await api.POST('/sandbox/organization/{organizationId}/order/{id}/simulate', { params: { path: { organizationId: person, id } }, body: { action } }), 200);
  // A swap is paid in tokens: the chain simulator funds it, and nothing moves it on by itself.
  const fundedSwap = async () => {
    const { id } = await order(server, person, { type: 'swap', sourceAsset: 'USDC', targetAsset: 'CETES', sourceAmount: '20', walletAddress });
    await simulate(id, 'confirmSourceFunds');
    return id;
  };
  const claimable = await fundedSwap();
  await simulate(claimable, 'makeClaimable');
  // An offramp from an embedded wallet waits for its signer's authorization: signed here as the wallet would.
  const signer = signerKeys();
  const embedded = randomSolanaAddress();
  expectStatus(await api.POST('/organization/{organizationId}/wallet', { ...at(person), body: { custody: 'embedded', address: embedded, blockchain: 'solana', signerPublicKey: signer.publicKey } }), 201);
  const toAuthorize = await order(server, person, { type: 'offramp', sourceAsset: 'USDC', targetAsset: 'MXN', sourceAmount: '20', rail: 'spei', paymentAccountId: account.id, walletAddress: embedded });
  const authorization = toAuthorize.authorization!;
  const subscription = async () => expectStatus(await api.POST('/webhook_subscription', { body: { url: `http://127.0.0.1:9/hook/${randomUUID()}`, eventType: 'orderUpdated' } }), 201).id;
  const events = expectStatus(await api.GET('/sandbox/events', { params: { query: { pageSize: 1 } } }), 200);
  const bonds = expectStatus(await api.GET('/lookup/bonds/cost'), 200) as Record<string, unknown>;
  const asset = (await fetch(`${server.url}/sandbox/console`).then((r) => r.text())).match(/\/sandbox\/console\/([\w.-]+)/);
  const key = expectStatus(await api.POST('/organization/{organizationId}/api_key', at(server.partnerId)), 201);
  return {
    values: {
      organizationId: person, payment_account: account.id, order: await newOrder(), webhook_subscription: await subscription(),
      eventId: events.items[0]!.eventId, asset: asset?.[1] ?? '<asset>', quote: (await quote(server, person, onramp)).quoteId,
      // getBondCost's documented mint is no bond of the sandbox: a bond it prices.
      identifier: Object.keys(bonds)[0]!,
    },
    own: {
      cancelOrder: { order: await newOrder() },
      simulateDeposit: { order: await newOrder() },
      simulateOrder: { order: await fundedSwap() },
      claimOrder: { order: claimable },
      authorizeOrder: { order: toAuthorize.id, authorization: authorization.id, signature: signer.der(authorization.method.message) },
      submitKyc: { organizationId: await createCustomer(server) },
      getKyb: { organizationId: await createCustomer(server, { type: 'business' }) },
      submitKyb: { organizationId: await createCustomer(server, { type: 'business' }) },
      simulateKyb: { organizationId: await createCustomer(server, { type: 'business' }) },
      // API keys are the key's own organization's.
      createApiKey: { organizationId: server.partnerId },
      deleteApiKey: { organizationId: server.partnerId, api_key: key.id },
      deleteWebhookSubscription: { webhook_subscription: await subscription() },
      deleteSandboxPartner: { partnerId: expectStatus(await api.POST('/sandbox/partners', { body: {} }), 201).id },
    },
  };
}

/** The v1 objects of the world, of the customer `person` (as v2Objects). */
async function v1Objects(server: TestServer, person: string, bundle: Json): Promise<Objects> {
  const api = server.api;
  const wallet = expectStatus(await api.POST('/ramp/wallet', { body: { customerId: person, custody: 'external', blockchain: 'solana', address: randomSolanaAddress() } }), 201).id;
  const webhook = async () => expectStatus(await api.POST('/ramp/webhook', { body: { url: `https://partner.example/hooks/${randomUUID()}`, eventType: 'order_updated' } }), 201).id;
  const newOrder = async (type: 'onramp' | 'offramp' = 'onramp') =>
    expectStatus(await api.POST('/ramp/order', {
      body: type === 'onramp'
        ? { customerId: person, type, sourceAmount: '250.00', walletId: wallet, token: 'CETES' }
        : { customerId: person, type, sourceAmount: '100.000000', bankAccountId: (await createBankAccount(server, person)).internalAccountId, walletId: wallet, token: 'CETES' },
    }), 201).id;
  const swap = async () => expectStatus(await api.POST('/ramp/swap', { body: { customerId: person, walletId: wallet, sourceToken: 'CETES', targetToken: 'USDC', sourceAmount: '50.000000' } }), 201).id;
  const customer = async (type: 'personal' | 'business' = 'personal') => createCustomer(server, { type });
  // A customer whose KYC awaits review (v1SubmitCustomerKyc's documented example), for the KYC simulator.
  const submittedKyc = async () => {
    const id = await customer();
    expectStatus(await api.POST('/ramp/customer/{customer_id}/kyc', { params: { path: { customer_id: id } }, body: bodyExample(bundle, '/ramp/customer/{customer_id}/kyc', 'post') }), 200);
    return id;
  };
  const onboarding = expectStatus(await api.POST('/sandbox/ramp/customer/{customer_id}/onboarding', { params: { path: { customer_id: person } } }), 201);
  return {
    values: {
      v1customer: person, v1org: person, v1wallet: wallet, v1order: await newOrder(), v1swap: await swap(),
      'v1bank-account': (await createBankAccount(server, person)).internalAccountId, v1webhook: await webhook(), presignedUrl: onboarding.presignedUrl,
    },
    own: {
      v1CreateOrganization: { v1org: randomUUID() },
      v1SubmitCustomerKyc: { v1customer: await customer() },
      v1SimulateCustomerKyc: { v1customer: await submittedKyc() },
      v1SimulateKyb: { v1org: await customer('business') },
      v1ConfirmFiatReceived: { v1order: await newOrder() },
      v1CancelOrder: { v1order: await newOrder() },
      v1RegenerateOrderTransaction: { v1order: await newOrder('offramp') },
      v1SimulateOrder: { v1order: await newOrder('offramp') },
      v1SimulateSwap: { v1swap: await swap() },
      v1SimulateBankAccount: { 'v1bank-account': (await createBankAccount(server, person, { usable: false })).internalAccountId },
      v1DeleteWebhook: { v1webhook: await webhook() },
    },
  };
}

/** The documented example body a sample sends (scripts/code-samples.ts takes the first). */
function bodyExample(bundle: Json, path: string, method: string): any {
  const media = deref(bundle, bundle.paths[path][method].requestBody).content['application/json'];
  return media.example ?? deref(bundle, Object.values<Json>(media.examples)[0]!).value;
}

/** Ids a request body's example holds (not a path parameter's): the kind they name, by the operation that shows them. */
function bodyExamples(bundle: Json): Record<string, string> {
  const authorization = bodyExample(bundle, '/organization/{organizationId}/order/{id}/authorization', 'post');
  return {
    quote: bodyExample(bundle, '/organization/{organizationId}/order', 'post').quoteId,
    presignedUrl: bodyExample(bundle, '/ramp/onboarding/bank-accounts', 'post').presignedUrl,
    authorization: authorization.authorizationId,
    signature: authorization.signature,
  };
}

export async function buildWorld(server: TestServer, bundle: Json): Promise<World> {
  // A JWT issuer (setJwtIssuer's inline example), so getJwtIssuer has one to show.
  const jwks = { keys: [{ kty: 'EC' as const, kid: 'partner-2026-11', use: 'sig' as const, alg: 'ES256', crv: 'P-256', x: '8u7v4GoJgzJ6EsXYFlLAvR6pVyQI_hdHXfuMbAwz9dE', y: 'MFrnB1Tfl7kitE2_4Fgh2mL6cQrdsqvT6IZvGclNfQQ' }] };
  expectStatus(await server.api.PUT('/jwt_issuer', { body: { issuer: 'https://auth.partner.example', jwks } }), 200);
  const person = await createCustomer(server, { approved: true });
  const v2 = await v2Objects(server, person);
  const v1 = await v1Objects(server, person, bundle);
  const values = { ...v2.values, ...v1.values };
  const own = { ...v2.own, ...v1.own };
  // The v1 examples name the same ids in bodies as in paths (a customer, a wallet): each is replaced wherever it shows.
  const examples: Record<string, string> = { ...bodyExamples(bundle) };
  for (const [path, item] of Object.entries<Json>(bundle.paths)) {
    for (const operation of Object.values<Json>(item)) {
      if (!operation?.operationId) continue;
      for (const parameter of pathParameters(bundle, path, operation)) {
        const shown = exampleText(bundle, parameter);
        if (!shown.startsWith('<')) examples[kindOf(path, parameter.name)] ??= shown;
      }
    }
  }
  return {
    key: server.key,
    substitute(source, path, method) {
      const operation = bundle.paths[path][method];
      const valueOf = (kind: string) => own[operation.operationId]?.[kind] ?? values[kind];
      let text = source;
      for (const parameter of pathParameters(bundle, path, operation)) {
        const value = valueOf(kindOf(path, parameter.name));
        if (value !== undefined) text = text.replaceAll(exampleText(bundle, parameter), value);
      }
      for (const [kind, shown] of Object.entries(examples)) {
        const value = valueOf(kind);
        if (value !== undefined) text = text.replaceAll(shown, value);
      }
      return text;
    },
  };
}
