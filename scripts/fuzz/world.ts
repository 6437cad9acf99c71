/**
 * The world `npm run test:fuzz` builds before Schemathesis starts, through the public API and
 * the sandbox simulators only (what a partner could do), so that generated requests can name
 * things that exist and every operation that documents a 2xx can reach it.
 *
 * Who is who:
 *   - the partner P (RAMP_SEED_API_KEY; the key Schemathesis sends), with spare keys and the
 *     JWT issuer that signs every sign-in, assertion and refresh token of the world (only P
 *     holds keys, so only P registers an issuer);
 *   - B, an approved business customer;
 *   - C, an approved person: every v2 and v1 money flow (payment accounts, wallets, quotes,
 *     orders in every status, swaps, bank accounts) belongs to C;
 *   - people and businesses at each verification stage, for the submissions and simulators.
 *
 * Things an operation uses up (a deposit funds an order once, a refresh token works once, a
 * deleted subscription is gone) come in pools of their own per operation, so that one
 * operation consuming them leaves the others theirs. Each pool is a Schemathesis dictionary:
 * schemathesis.toml binds it to the parameter or body field that takes it.
 *
 * Besides the pools, the world gives every operation that documents a 2xx at least one request
 * that succeeds (`examples`): real ids, a resource of its own in the state the operation needs
 * (an order waiting for its signature, a key to revoke, an order the simulated action applies
 * to) and a body the operation's rules accept. hooks.py hands them to Schemathesis as explicit
 * examples, which its examples phase sends first, before anything generated can use the
 * resources up: so every such operation gets a 2xx from a request Schemathesis sends and checks,
 * however busy the machine and whatever the generators draw. The pools still feed everything
 * generated after that.
 *
 * Timing: quotes stay firm 5 minutes (a quote that already has its order answers its order
 * forever, so those are in the createOrder pool too), and a partner JWT is accepted from 60 s
 * before its `iat` to 60 s after its `exp`, at most 300 s later: the assertion pools hold
 * JWTs for consecutive windows that cover the whole run.
 */
import { generateKeyPairSync, randomInt, randomUUID, sign, type KeyObject } from 'node:crypto';
import { exportJWK, SignJWT, type JWK } from 'jose';
import { loadContract } from '../../server/shared/contract.ts';
import { makeClabe } from '../../server/shared/clabe.ts';
import { newAddress } from '../../server/shared/world.ts';

type Json = Record<string, any>;

/** One request an operation answers with a 2xx, as hooks.py gives it to Schemathesis. */
export interface ExampleRequest {
  path?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /** The body's media type (the JSON one where an operation also takes a form). */
  mediaType?: string;
}

export interface World {
  /** Dictionary name → values (one per line in `<name>.dict`). */
  dictionaries: Record<string, string[]>;
  /** operationId → requests it answers with a 2xx, each with resources of its own. */
  examples: Record<string, ExampleRequest[]>;
  /** Values the configuration reads from the environment (`${RAMP_FUZZ_…}`). */
  env: Record<string, string>;
  /** What was built, for the summary. */
  counts: Record<string, number>;
}

export interface WorldOptions {
  base: string;
  apiKey: string;
  partnerId: string;
  /** The loopback receivers every world subscription delivers to. */
  receivers: { v2: string; v1: string };
  /** How long the assertion pools must cover, from now. */
  coverSeconds: number;
  /** A JWKS served on loopback, for `PUT /jwt_issuer {jwksUri}`. */
  jwksUri: string;
  /** Has that JWKS serve this key (the partner's issuer's). */
  serveJwks: (key: JWK) => void;
}

/** A refused world-building step stops the run: the world is the precondition of every figure. */
class Api {
  constructor(
    readonly base: string,
    readonly key: string,
  ) {}

  async call(method: string, path: string, body?: unknown, options: { key?: string | null; form?: boolean } = {}) {
    const headers: Record<string, string> = {};
    const key = options.key === undefined ? this.key : options.key;
    if (key !== null) headers.Authorization = key;
    let payload: string | undefined;
    if (body !== undefined && options.form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      payload = new URLSearchParams(body as Record<string, string>).toString();
    } else if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const response = await fetch(this.base + path, { method, headers, body: payload });
    const text = await response.text();
    if (!response.ok) throw new Error(`world: ${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`);
    let json: Json = {};
    try {
      json = text ? (JSON.parse(text) as Json) : {};
    } catch {
      // an HTML page (the launch)
    }
    return { json, headers: response.headers };
  }

  post = (path: string, body?: unknown, options?: { key?: string | null; form?: boolean }) => this.call('POST', path, body, options).then((r) => r.json);
  put = (path: string, body?: unknown, options?: { key?: string | null }) => this.call('PUT', path, body, options).then((r) => r.json);
  get = (path: string, options?: { key?: string | null }) => this.call('GET', path, undefined, options).then((r) => r.json);
}

let contract: ReturnType<typeof loadContract> | undefined;

/** A request body the contract gives as a named example (the first one when no name is given). */
function example(operationId: string, name?: string): Json {
  const { document } = (contract ??= loadContract());
  for (const item of Object.values<Json>(document.paths)) {
    for (const operation of Object.values<Json>(item)) {
      if (operation?.operationId !== operationId) continue;
      const media = operation.requestBody.content['application/json'];
      const examples = media.examples as Record<string, { value: Json }>;
      return structuredClone((name ? examples[name] : Object.values(examples)[0])!.value);
    }
  }
  throw new Error(`no request example of ${operationId}`);
}

/** A valid CLABE of a customer's bank account (Banamex, 002), different each call. */
const clabe = () => makeClabe('002', '010', String(randomInt(0, 100_000_000_000)).padStart(11, '0'));

/** A P-256 signer: its SEC1 public key and hex DER signatures (ECDSA over SHA-256). */
function signer() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const uncompressed = `04${Buffer.from(jwk.x!, 'base64url').toString('hex')}${Buffer.from(jwk.y!, 'base64url').toString('hex')}`;
  return { publicKey: uncompressed, sign: (message: string) => sign('sha256', Buffer.from(message, 'utf8'), privateKey).toString('hex') };
}

/** A partner's JWT issuer: the key it signs with, registered inline with `PUT /jwt_issuer`. */
async function issuer(api: Api, key: string, name: string) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const kid = `fuzz-${randomUUID().slice(0, 8)}`;
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
  const iss = `https://auth.${name}.fuzz.example`;
  await api.put('/jwt_issuer', { issuer: iss, jwks: { keys: [publicJwk] } }, { key });
  return { iss, kid, privateKey, publicJwk };
}

/** A JWT of the issuer for one person, every scope, valid from `iat` (seconds) for 300 s. */
async function assertion(signer: { iss: string; kid: string; privateKey: KeyObject }, audience: string, subject: string, iat: number) {
  return new SignJWT({ scope: 'onramp offramp swap kyc kyb', email: 'ana.fuzz@example.com', name: 'Ana Fuzz', jti: randomUUID() })
    .setProtectedHeader({ alg: 'ES256', kid: signer.kid, typ: 'JWT' })
    .setIssuer(signer.iss)
    .setSubject(subject)
    .setAudience(audience)
    .setIssuedAt(iat)
    .setExpirationTime(iat + 300)
    .sign(signer.privateKey);
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

export async function buildWorld(options: WorldOptions): Promise<World> {
  const api = new Api(options.base, options.apiKey);
  const P = options.partnerId;
  const d: Record<string, string[]> = {};
  const add = (name: string, ...values: string[]) => (d[name] ??= []).push(...values);
  const examples: Record<string, ExampleRequest[]> = {};
  const request = (operationId: string, ...requests: ExampleRequest[]) =>
    (examples[operationId] ??= []).push(...requests.map((r) => (r.body === undefined || r.mediaType ? r : { ...r, mediaType: 'application/json' })));

  // --- Webhook subscriptions first, so every event the world makes is delivered. ---
  const v2Types = ['orderUpdated', 'paymentAccountUpdated', 'kycUpdated', 'kybUpdated'];
  for (const eventType of v2Types) {
    add('webhook-subscriptions', (await api.post('/webhook_subscription', { url: `${options.receivers.v2}/v2/${eventType}`, eventType })).id);
  }
  for (const i of range(8)) {
    add('webhook-subscriptions-disposable', (await api.post('/webhook_subscription', { url: `${options.receivers.v2}/v2/disposable-${i}`, eventType: v2Types[i % 4] })).id);
  }
  const v1Types = ['order_updated', 'swap_updated', 'customer_updated', 'kyc_updated', 'kyb_updated', 'bank_account_updated'];
  for (const eventType of v1Types) {
    add('v1-webhooks', (await api.post('/ramp/webhook', { url: `${options.receivers.v1}/v1/${eventType}`, eventType })).id);
  }
  for (const i of range(6)) {
    add('v1-webhooks-disposable', (await api.post('/ramp/webhook', { url: `${options.receivers.v1}/v1/disposable-${i}`, eventType: v1Types[i] })).id);
  }
  const [subscription] = d['webhook-subscriptions']!;
  request('createWebhookSubscription', { body: { url: `${options.receivers.v2}/v2/example`, eventType: 'orderUpdated' } });
  request('listWebhookSubscriptions', {});
  request('getWebhookSubscription', { path: { id: subscription! } });
  request('listWebhookDeliveries', { path: { id: subscription! } });
  request('deleteWebhookSubscription', { path: { id: (await api.post('/webhook_subscription', { url: `${options.receivers.v2}/v2/example-delete`, eventType: 'kycUpdated' })).id } });
  // The sandbox console's reads: the event feed, a subscription's deliveries in detail, the
  // page and the files it names (named after their content, so read from the page).
  request('listSandboxEvents', {});
  request('listSandboxWebhookDeliveries', { path: { id: subscription! } });
  request('getSandboxConsole', {});
  const consolePage = await (await fetch(`${options.base}/sandbox/console`)).text();
  const consoleFile = /\/sandbox\/console\/([^"'/]+\.js)/.exec(consolePage)?.[1];
  if (!consoleFile) throw new Error('world: the sandbox console page names no script (is the console built?)');
  request('getSandboxConsoleAsset', { path: { asset: consoleFile } });
  // The partner's sandbox clock. Its requests keep the world's timers where they are: the clock
  // keeps running, and one second passes (a quote stays firm five minutes, an unfunded order
  // an hour). The clock's paths come after every path whose request needs a firm quote or an
  // unfunded order, and Schemathesis (one worker) sends the examples in the document's order;
  // what later phases generate may move the clock up to a year at once, which leaves those
  // operations their refusals only (quote-expired, an order already canceled).
  request('getSandboxClock', {});
  request('setSandboxClock', { body: { frozen: false } });
  request('advanceSandboxClock', { body: { by: 'PT1S' } });
  request('v1CreateWebhook', { body: { url: `${options.receivers.v1}/v1/example`, eventType: 'order_updated' } });
  request('v1ListWebhooks', { body: {} });
  request('v1GetWebhook', { path: { id: d['v1-webhooks']![0]! } });
  request('v1DeleteWebhook', { path: { id: (await api.post('/ramp/webhook', { url: `${options.receivers.v1}/v1/example-delete`, eventType: 'kyc_updated' })).id } });

  // --- Organizations. ---
  const child = async (type: 'personal' | 'business', displayName: string) =>
    (await api.post('/ramp/organization', { displayName, type })).organizationId as string;
  const B = await child('business', 'Fuzz Business SA de CV');
  const C = await child('personal', 'Ana Fuzz');
  await api.post(`/sandbox/organization/${B}/kyb`, { status: 'approved' });
  await api.post(`/sandbox/organization/${C}/kyc`, { status: 'approved' });
  add('organizations', P, B, C);
  add('customers', B, C);
  add('money-organization', C);
  request('listOrganizations', {});
  request('getOrganization', { path: { organizationId: C } });
  request('v1CreateOrganization', { body: { displayName: 'Fuzz example person', type: 'personal' } });
  request('v1RenameOrganization', { path: { org_id: await child('personal', 'Fuzz example to rename') }, body: { displayName: 'Fuzz example renamed' } });
  request('v1ListCustomers', {});
  request('v1SearchCustomers', { body: {} });
  request('v1GetCustomer', { path: { customer_id: C } });
  request('v1GetCustomerKyc', { path: { customer_id: C } });
  request('getKyc', { path: { organizationId: C } });
  request('getKyb', { path: { organizationId: B } });

  // People and businesses at every stage, each pool for one operation. A submitted KYC has
  // the contract's example submission; inProgress comes from the simulator.
  const person = async (stage: 'notStarted' | 'inProgress' | 'submitted') => {
    const id = await child('personal', `Fuzz person ${stage}`);
    if (stage === 'inProgress') await api.post(`/sandbox/organization/${id}/kyc`, { status: 'inProgress' });
    if (stage === 'submitted') await api.put(`/organization/${id}/kyc`, example('submitKyc'));
    return id;
  };
  const business = async (stage: 'notStarted' | 'inProgress' | 'submitted') => {
    const id = await child('business', `Fuzz business ${stage}`);
    if (stage === 'inProgress') await api.post(`/sandbox/organization/${id}/kyb`, { status: 'inProgress' });
    if (stage === 'submitted') await api.put(`/organization/${id}/kyb`, example('submitKyb'));
    return id;
  };
  const stages = ['notStarted', 'inProgress', 'submitted'] as const;
  for (const i of range(6)) {
    add('kyc-open', await person(stages[i % 3]!));
    add('kyc-open-v1', await person(stages[i % 3]!));
    add('kyb-open', await business(stages[i % 3]!));
    add('kyc-decide', await person(stages[i % 3]!));
    add('kyb-decide', await business(stages[i % 3]!));
    add('kyb-decide-v1', await business(stages[i % 3]!));
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
  for (const _ of range(8)) add('kyc-submitted-v1', await person('submitted'));
  // Each submission and decision of the examples on a person or business of its own.
  request('submitKyc', { path: { organizationId: await person('notStarted') }, body: example('submitKyc') });
  request('submitKyb', { path: { organizationId: await business('notStarted') }, body: example('submitKyb') });
  request('v1SubmitCustomerKyc', { path: { customer_id: await person('notStarted') }, body: example('v1SubmitCustomerKyc') });
  request('simulateKyc', { path: { organizationId: await person('submitted') }, body: { status: 'approved' } });
  request('simulateKyb', { path: { organizationId: await business('submitted') }, body: { status: 'approved' } });
  request('v1SimulateCustomerKyc', { path: { customer_id: await person('submitted') }, body: { status: 'kyc_approved' } });
  request('v1SimulateKyb', { path: { org_id: await business('submitted') }, body: { status: 'approved' } });
  // A decision that stays where it is (approved → approved) is a 200 too.
  add('kyc-decide', C);
  add('kyb-decide', B);
  add('kyb-decide-v1', B);

  // --- API keys of P, the only organization that holds keys: a key creates keys for its own
  // organization only, and no customer gets a first one. The key Schemathesis sends is P's
  // seed key; hooks.py keeps deleteApiKey off it (revoked, it would make the rest of the run
  // 401). Spare keys for deleteApiKey to revoke, one for its example: with the seed key that
  // is 4 active, so createApiKey's example has the fifth.
  const ownKeys = (await api.get(`/organization/${P}/api_keys`)).items as Json[];
  if (ownKeys.length !== 1) throw new Error(`world: the partner holds ${ownKeys.length} keys, expected its seed key alone`);
  for (const _ of range(2)) add('api-keys-disposable', (await api.post(`/organization/${P}/api_key`)).id);
  request('deleteApiKey', { path: { organizationId: P, id: (await api.post(`/organization/${P}/api_key`)).id } });
  request('createApiKey', { path: { organizationId: P } });
  request('listApiKeys', { path: { organizationId: P } });

  // --- Sign-in: P's issuer signs every JWT below; the loopback JWKS of setJwtIssuer's
  // jwksUri serves the same key, and its issuer is in the `jwt-issuers` pool, so a fuzzed
  // PUT /jwt_issuer that registers them keeps these JWTs valid (one with another issuer or
  // key ends their use; refresh tokens and sessions live on). ---
  const partner = await issuer(api, options.apiKey, 'partner');
  options.serveJwks(partner.publicJwk);
  add('jwt-issuers', partner.iss);
  const audience = `${options.base}/auth/token`;
  const person0 = randomUUID();
  const now = Math.floor(Date.now() / 1000);
  const jwt = () => assertion(partner, audience, person0, now);
  // The app pages' session: every scope, from a grant whose refresh token no one else sees
  // (reusing a refresh token revokes its whole sign-in, sessions included).
  const launched = await api.call('POST', '/auth/launch', { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: await jwt(), target: '/account' }, { key: null, form: true });
  const session = /ramp_session=([^;]+)/.exec(launched.headers.get('set-cookie') ?? '')?.[1];
  if (!session) throw new Error('world: POST /auth/launch set no ramp_session cookie');
  // Refresh tokens, each from a sign-in of its own, so one reuse revokes only its own.
  for (const pool of ['refresh-tokens-token', 'refresh-tokens-launch']) {
    for (const _ of range(25)) {
      const tokens = await api.post('/auth/token', { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: await jwt() }, { key: null, form: true });
      add(pool, tokens.refresh_token);
    }
  }
  // Assertions for consecutive windows: the one issued at t is accepted on [t − 60, t + 360].
  for (let start = now; start < now + options.coverSeconds + 240; start += 240) {
    for (const pool of ['assertions-token', 'assertions-launch']) {
      for (const _ of range(15)) add(pool, await assertion(partner, audience, person0, start));
    }
  }
  add('launch-targets', '/account', '/kyc', '/kyb', '/onramp?amount=100', '/offramp', '/swap');
  // Sign-in's examples take refresh tokens of sign-ins of their own: they do not expire within
  // a run, where a JWT is accepted for minutes only.
  const refreshToken = async () =>
    (await api.post('/auth/token', { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: await jwt() }, { key: null, form: true })).refresh_token as string;
  request('createToken', { body: { grant_type: 'refresh_token', refresh_token: await refreshToken() } });
  request('launchSession', { body: { grant_type: 'refresh_token', refresh_token: await refreshToken(), target: '/account' } });
  request('getLaunchPage', {});
  for (const page of ['getKycPage', 'getKybPage', 'getOnrampPage', 'getOfframpPage', 'getSwapPage', 'getAccountPage']) request(page, {});
  request('getJwtIssuer', {});
  // P's issuer again (hooks.py sends it after the contract's own examples, one of which
  // registers another issuer): the examples phase leaves the JWTs above valid.
  request('setJwtIssuer', { body: { issuer: partner.iss, jwks: { keys: [partner.publicJwk] } } });
  for (const operationId of ['listTokenCosts', 'listBondCosts', 'listCountryCodes', 'listRestrictedCountries', 'getExchangeRates']) request(operationId, {});
  request('getTokenCost', { path: { identifier: 'CETES' } });
  request('getBondCost', { path: { identifier: 'CETES' } });
  // setJwtIssuer's jwksUri: the session serves this JWKS on loopback.
  add('jwks-uris', options.jwksUri);

  // --- v2 money of C. ---
  const v2 = (path: string) => `/organization/${C}${path}`;
  const account = async () => {
    const body = example('createPaymentAccount', 'BankAccount');
    body.accountDetails.clabe = clabe();
    return (await api.post(v2('/payment_account'), body)).id as string;
  };
  const ready = await account();
  await api.post(`/sandbox${v2(`/payment_account/${ready}/simulate`)}`, { action: 'setRailStatus', rail: 'spei', direction: 'destination', status: 'ready' });
  add('payment-accounts', ready);
  add('quote-payment-accounts', ready);
  for (const _ of range(4)) {
    const id = await account();
    add('payment-accounts', id);
    add('payment-accounts-simulate', id);
  }
  for (const _ of range(40)) add('clabes-v2', clabe());
  add('payment-account-kinds', 'bankAccount');
  const newAccount = example('createPaymentAccount', 'BankAccount');
  newAccount.accountDetails.clabe = clabe();
  request('createPaymentAccount', { path: { organizationId: C }, body: newAccount });
  request('listPaymentAccounts', { path: { organizationId: C } });
  request('getPaymentAccount', { path: { organizationId: C, id: ready } });
  request('simulatePaymentAccount', { path: { organizationId: C, id: await account() }, body: { action: 'setRailStatus', rail: 'spei', direction: 'destination', status: 'ready' } });
  const external = await api.post(v2('/wallet'), { custody: 'external', blockchain: 'solana', address: newAddress('solana') });
  const embeddedSigner = signer();
  const embedded = await api.post(v2('/wallet'), { custody: 'embedded', blockchain: 'solana', address: newAddress('solana'), signerPublicKey: embeddedSigner.publicKey });
  add('wallet-addresses', external.address, embedded.address);
  request('createWallet', { path: { organizationId: C }, body: { custody: 'external', blockchain: 'solana', address: newAddress('solana') } });
  request('listWallets', { path: { organizationId: C } });

  const quote = async (type: 'onramp' | 'offramp' | 'swap', wallet = external.address) => {
    const body =
      type === 'onramp' ? { type, sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: '100.00', rail: 'spei', walletAddress: wallet }
      : type === 'offramp' ? { type, sourceAsset: 'USDC', targetAsset: 'MXN', sourceAmount: '20', rail: 'spei', paymentAccountId: ready, walletAddress: wallet }
      : { type, sourceAsset: 'USDC', targetAsset: 'USDT', sourceAmount: '20', walletAddress: wallet };
    return (await api.post(v2('/quote'), body)).quoteId as string;
  };
  const order = async (type: 'onramp' | 'offramp' | 'swap', wallet?: string) => {
    const quoteId = await quote(type, wallet);
    add('quotes', quoteId);
    const created = await api.post(v2('/order'), { quoteId });
    add('v2-orders', created.id);
    return created as Json;
  };
  const simulate = (id: string, body: Json) => api.post(`/sandbox${v2(`/order/${id}/simulate`)}`, body);
  const deposit = (id: string, body: Json) => api.post(`/sandbox${v2(`/order/${id}/deposit`)}`, body);
  const funded = async () => {
    const created = await order('onramp');
    await deposit(created.id, { autoComplete: false });
    return created.id as string;
  };
  for (const _ of range(12)) add('v2-orders-awaiting-deposit', (await order('onramp')).id);
  for (const _ of range(4)) add('v2-orders-open', (await order('onramp')).id);
  for (const _ of range(4)) add('v2-orders-open', (await order('offramp')).id);
  for (const _ of range(4)) add('v2-orders-open', (await order('swap')).id);
  for (const _ of range(6)) add('v2-orders-open', await funded());
  for (const _ of range(6)) {
    const id = await funded();
    await simulate(id, { action: 'makeClaimable' });
    add('v2-orders-claimable', id);
  }
  for (const _ of range(4)) add('v2-orders-cancelable', (await order('onramp')).id);
  for (const _ of range(4)) {
    const created = await order('onramp');
    await api.post(v2(`/order/${created.id}/cancel`));
    add('v2-orders-cancelable', created.id);
  }
  await simulate(await funded(), { action: 'deliver' });
  await simulate((await order('onramp')).id, { action: 'fail' });
  await deposit((await order('onramp')).id, { amount: '1.00' });
  // One order waits for the embedded wallet's signature: authorizeOrder gets its id, its
  // authorization and the signature, each the only value of its pool.
  const pending = await order('offramp', embedded.address);
  add('v2-orders-authorizable', pending.id);
  add('authorization-ids', pending.authorization.id);
  add('authorization-signatures', embeddedSigner.sign(pending.authorization.method.message));
  // The examples' orders, each in the status its operation acts on.
  const toAuthorize = await order('offramp', embedded.address);
  request('authorizeOrder', {
    path: { organizationId: C, id: toAuthorize.id },
    body: { authorizationId: toAuthorize.authorization.id, signature: embeddedSigner.sign(toAuthorize.authorization.method.message) },
  });
  request('cancelOrder', { path: { organizationId: C, id: (await order('onramp')).id } });
  request('simulateDeposit', { path: { organizationId: C, id: (await order('onramp')).id }, body: {} });
  request('simulateOrder', { path: { organizationId: C, id: await funded() }, body: { action: 'deliver' } });
  const toClaim = await funded();
  await simulate(toClaim, { action: 'makeClaimable' });
  request('claimOrder', { path: { organizationId: C, id: toClaim } });
  request('getOrder', { path: { organizationId: C, id: toAuthorize.id } });
  request('listOrders', {});
  request('createQuote', { path: { organizationId: C }, body: { type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: '100.00', rail: 'spei', walletAddress: external.address } });
  request('listQuotes', { path: { organizationId: C } });
  // A quote that already has its order answers that order (200) whenever it is sent again.
  request('createOrder', { path: { organizationId: C }, body: { quoteId: d['quotes']![0]! } });
  // Quotes not yet ordered: createOrder's 201 while they are firm.
  for (const _ of range(10)) add('quotes', await quote('onramp'));
  add('quote-source-assets', 'MXN', 'USDC');
  add('quote-target-assets', 'USDC', 'MXN', 'USDT');
  add('quote-amounts', '100.00', '20');

  // --- v1 money of C. ---
  const v1Wallet = async (body: Json) => (await api.post('/ramp/wallet', { customerId: C, ...body })) as Json;
  const solana = await v1Wallet({ custody: 'external', blockchain: 'solana', address: newAddress('solana') });
  const stellar = await v1Wallet({ custody: 'external', blockchain: 'stellar', address: newAddress('stellar') });
  const v1Embedded = await v1Wallet({ custody: 'embedded', blockchain: 'solana', signerPublicKey: signer().publicKey });
  add('v1-wallets', solana.id, stellar.id, v1Embedded.id);
  const solanaWallet = solana.id as string;
  add('v1-wallet-addresses', newAddress('solana'), newAddress('stellar'));
  for (const _ of range(20)) add('v1-new-wallet-addresses', newAddress('solana'), newAddress('stellar'));
  const v1SignerPublicKey = signer().publicKey;
  request('v1CreateWallet', { body: { customerId: C, custody: 'embedded', blockchain: 'solana', signerPublicKey: v1SignerPublicKey } });
  request('v1ListWallets', { body: {} });
  request('v1ListCustomerWallets', { path: { customer_id: C }, body: {} });
  request('v1GetWallet', { path: { id: solana.id } });
  const bankAccount = async () => (await api.post('/ramp/bank-account', { customerId: C, clabe: clabe(), currency: 'MXN' })).internalAccountId as string;
  const active = await bankAccount();
  await api.post(`/sandbox/ramp/bank-account/${active}/status`, { status: 'bank_account_active', compliant: true });
  add('v1-bank-accounts', active);
  add('v1-order-bank-accounts', active);
  for (const _ of range(4)) {
    const id = await bankAccount();
    add('v1-bank-accounts', id);
    add('v1-bank-accounts-simulate', id);
  }
  for (const _ of range(40)) add('clabes-v1', clabe());
  request('v1CreateBankAccount', { body: { customerId: C, clabe: clabe(), currency: 'MXN' } });
  request('v1ListBankAccounts', { body: {} });
  request('v1ListCustomerBankAccounts', { path: { customer_id: C }, body: {} });
  request('v1GetBankAccount', { path: { id: active } });
  request('v1SimulateBankAccount', { path: { id: await bankAccount() }, body: { status: 'bank_account_active', compliant: true } });
  add('v1-tokens', 'USDC', 'CETES');
  add('v1-swap-source-tokens', 'CETES');
  add('v1-swap-target-tokens', 'USDC');
  add('v1-amounts', '100', '5');

  const v1Order = async (type: 'onramp' | 'offramp') => {
    const body = { customerId: C, type, sourceAmount: type === 'onramp' ? '100' : '5', token: 'USDC', walletId: solana.id, ...(type === 'offramp' ? { bankAccountId: active } : {}) };
    const id = (await api.post('/ramp/order', body)).id as string;
    add('v1-orders', id);
    return id;
  };
  const v1Simulate = (id: string, action: string) => api.post(`/sandbox/ramp/order/${id}/simulate`, { action });
  const fiat = (id: string, amount?: string) => api.post('/ramp/order/fiat_received', { orderId: id, ...(amount ? { amount } : {}) });
  for (const _ of range(12)) add('v1-onramps-awaiting-deposit', await v1Order('onramp'));
  for (const _ of range(12)) add('v1-orders-cancelable', await v1Order('onramp'));
  for (const _ of range(6)) {
    const id = await v1Order('offramp');
    add('v1-offramps-created', id);
    add('v1-orders-open', id);
  }
  for (const _ of range(6)) add('v1-orders-open', await v1Order('onramp'));
  for (const _ of range(4)) {
    const id = await v1Order('onramp');
    await fiat(id);
    add('v1-orders-open', id);
  }
  for (const _ of range(4)) {
    const id = await v1Order('offramp');
    await v1Simulate(id, 'burnConfirmed');
    add('v1-orders-open', id);
  }
  for (const _ of range(2)) {
    const id = await v1Order('offramp');
    await v1Simulate(id, 'burnConfirmed');
    await v1Simulate(id, 'fiatSent');
    add('v1-orders-open', id);
  }
  const finalized = await v1Order('offramp');
  for (const action of ['burnConfirmed', 'fiatSent', 'reversalWindowPassed']) await v1Simulate(finalized, action);
  const delivered = await v1Order('onramp');
  await fiat(delivered);
  await v1Simulate(delivered, 'tokensDelivered');
  await v1Simulate(await v1Order('onramp'), 'fail');
  await api.post(`/ramp/order/${await v1Order('onramp')}/cancel`);
  await fiat(await v1Order('onramp'), '1');
  request('v1CreateOrder', { body: { customerId: C, type: 'onramp', sourceAmount: '100', token: 'USDC', walletId: solana.id } });
  request('v1ListOrders', { body: {} });
  request('v1ListCustomerOrders', { path: { customer_id: C }, body: {} });
  request('v1GetOrder', { path: { id: delivered } });
  request('v1ConfirmFiatReceived', { body: { orderId: await v1Order('onramp') } });
  request('v1CancelOrder', { path: { id: await v1Order('onramp') } });
  request('v1RegenerateOrderTransaction', { path: { id: await v1Order('offramp') } });
  request('v1SimulateOrder', { path: { id: await v1Order('offramp') }, body: { action: 'burnConfirmed' } });

  const swap = async () => {
    const id = (await api.post('/ramp/swap', { customerId: C, walletId: solana.id, sourceToken: 'USDC', targetToken: 'CETES', sourceAmount: '10' })).id as string;
    add('v1-swaps', id);
    return id;
  };
  const swapSimulate = (id: string, action: string) => api.post(`/sandbox/ramp/swap/${id}/simulate`, { action });
  for (const _ of range(6)) {
    const id = await swap();
    add('v1-swaps-created', id);
    add('v1-swaps-open', id);
  }
  for (const _ of range(6)) {
    const id = await swap();
    await swapSimulate(id, 'sendConfirmed');
    add('v1-swaps-open', id);
  }
  const completedSwap = await swap();
  await swapSimulate(completedSwap, 'sendConfirmed');
  await swapSimulate(completedSwap, 'delivered');
  await swapSimulate(await swap(), 'fail');
  request('v1CreateSwap', { body: { customerId: C, walletId: solana.id, sourceToken: 'USDC', targetToken: 'CETES', sourceAmount: '10' } });
  request('v1ListCustomerSwaps', { path: { customer_id: C }, body: {} });
  request('v1GetSwap', { path: { id: completedSwap } });
  request('v1RegenerateSwapTransaction', { path: { id: await swap() } });
  request('v1SimulateSwap', { path: { id: await swap() }, body: { action: 'sendConfirmed' } });

  for (const customer of [C, B]) add('onboarding-urls', (await api.post(`/sandbox/ramp/customer/${customer}/onboarding`)).presignedUrl);
  request('v1CreateOnboardingUrl', { path: { customer_id: C } });
  request('v1OnboardBankAccounts', { body: { presignedUrl: (await api.post(`/sandbox/ramp/customer/${C}/onboarding`)).presignedUrl } });

  // --- Delivered events: wait until the world's subscriptions have settled what it sent
  // (delivered, or failed after their attempts on a machine too busy to answer in time).
  const deadline = Date.now() + 300_000;
  for (const subscription of d['webhook-subscriptions']!) {
    for (;;) {
      const items = (await api.get(`/webhook_subscription/${subscription}/deliveries?pageSize=100`)).items as Json[];
      const delivered = items.filter((delivery) => delivery.status === 'delivered');
      if (delivered.length > 0 && items.every((delivery) => delivery.status !== 'pending')) {
        for (const delivery of delivered) add('v2-events', delivery.eventId);
        // A stored event can be sent again any number of times.
        if (!examples.resendWebhookEvent) request('resendWebhookEvent', { path: { eventId: delivered[0]!.eventId } });
        break;
      }
      if (Date.now() > deadline) throw new Error(`world: the deliveries of subscription ${subscription} are still pending after 300 s`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  const counts = Object.fromEntries(Object.entries(d).map(([name, values]) => [name, values.length]));
  const env = {
    RAMP_FUZZ_APP_SESSION: session,
    RAMP_FUZZ_KEY_ORGANIZATION: P,
    RAMP_FUZZ_OWN_KEY_ID: ownKeys[0]!.id as string,
    RAMP_FUZZ_MONEY_ORGANIZATION: C,
    RAMP_FUZZ_V1_WALLET: solanaWallet,
    RAMP_FUZZ_V1_SIGNER_PUBLIC_KEY: v1SignerPublicKey,
  };
  // Last, so it is as fresh as can be: a quote not yet ordered is ordered (201) while firm,
  // 5 minutes; the one above, first in the list, answers its order (200) after that too.
  request('createOrder', { path: { organizationId: C }, body: { quoteId: await quote('onramp') } });
  return { dictionaries: d, examples, env, counts };
}
