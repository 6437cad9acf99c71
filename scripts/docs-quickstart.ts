/**
 * The quickstart page (generated/docs/quickstart.html, served at /docs/quickstart): a
 * partner's first hour with the sandbox, from a key to a completed onramp and its webhook.
 * Each step is one operation, and its five snippets are that operation's own code samples
 * (scripts/code-samples.ts, code-samples-languages.ts) made with the step's values instead
 * of the documented examples: the ids earlier steps answered are read from the environment
 * (`${CUSTOMER_ID}`), as every sample reads RAMP_API_KEY. test/samples/quickstart.test.ts
 * runs the page's snippets in order in each language against a fresh sandbox.
 */
import { operationMethods } from '../server/shared/contract.ts';
import { codeSampleLanguage, codeSamplesOf, requestOf, resolveRef } from './code-samples.ts';
import { sampleLanguages, type Json } from './code-samples-languages.ts';
import { escapeHtml, htmlPage, redocAnchor } from './docs-html.ts';

export interface QuickstartStep {
  /** The step's anchor on the page. */
  id: string;
  title: string;
  /** What the step does and why, as HTML (written here, trusted). */
  text: string;
  /** The surface whose Redoc page documents the operation. */
  surface: 'v1' | 'v2';
  operationId: string;
  /** Path parameters: a value, or `${NAME}` read from the environment. */
  path?: Record<string, string>;
  /** The body the step sends, instead of the operation's first documented example. */
  body?: unknown;
  /** The documented status the step answers. */
  status: number;
  /** What to keep from the answer for the steps after: variable → top-level field. */
  keep?: Record<string, string>;
  /** The step is repeated until this top-level field of its answer has this value. */
  until?: { field: string; value: string };
}

const code = (text: string) => `<code>${escapeHtml(text)}</code>`;

export const quickstartSteps: QuickstartStep[] = [
  {
    id: 'create-a-customer',
    title: 'Create a customer',
    text: `<p>Every v2 path acts for an organization: your own, or one of your customers. <strong>Customers are created with v1's ${code('POST /ramp/organization')}</strong> (${code('v1CreateOrganization')}): v2 has no operation that creates one, and the same key works on both. The answer's ${code('organizationId')} is the customer's id in every v2 path.</p>`,
    surface: 'v1',
    operationId: 'v1CreateOrganization',
    body: { displayName: 'María Fernanda López', type: 'personal' },
    status: 201,
    keep: { CUSTOMER_ID: 'organizationId' },
  },
  {
    id: 'approve-kyc',
    title: "Approve the customer's KYC in the sandbox",
    text: `<p>A customer must be approved before it can quote. In production you submit its KYC (${code('PUT /organization/{organizationId}/kyc')}) and the review decides; in the sandbox the verification simulator decides at once.</p>`,
    surface: 'v2',
    operationId: 'simulateKyc',
    path: { organizationId: '${CUSTOMER_ID}' },
    body: { status: 'approved' },
    status: 200,
  },
  {
    id: 'subscribe-to-webhooks',
    title: "Subscribe to your orders' webhooks",
    text: `<p>Subscribe a URL of yours now, so the order you are about to create reaches it at every change. The sandbox also accepts ${code('http')} URLs. The answer's ${code('secret')} is shown only this once: keep it to verify each delivery's ${code('X-Signature')}.</p>`,
    surface: 'v2',
    operationId: 'createWebhookSubscription',
    body: { url: '${WEBHOOK_URL}', eventType: 'orderUpdated' },
    status: 201,
    keep: { SUBSCRIPTION_ID: 'id', WEBHOOK_SECRET: 'secret' },
  },
  {
    id: 'register-a-payment-account',
    title: 'Register a payment account (CLABE)',
    text: `<p>The customer's bank account, by its CLABE: where its offramps pay out MXN. It starts ${code('pending')} on the SPEI rail until the rail has verified it.</p>`,
    surface: 'v2',
    operationId: 'createPaymentAccount',
    path: { organizationId: '${CUSTOMER_ID}' },
    status: 201,
    keep: { PAYMENT_ACCOUNT_ID: 'id' },
  },
  {
    id: 'wait-for-the-payment-account',
    title: 'Wait for the payment account to be ready',
    text: `<p>Read it again until its ${code('status')} is ${code('ready')}: about a second in the sandbox. (A ${code('paymentAccountUpdated')} webhook says so too; the sandbox's payment account simulator can also set a rail's status at once.)</p>`,
    surface: 'v2',
    operationId: 'getPaymentAccount',
    path: { organizationId: '${CUSTOMER_ID}', id: '${PAYMENT_ACCOUNT_ID}' },
    status: 200,
    until: { field: 'status', value: 'ready' },
  },
  {
    id: 'get-a-quote',
    title: 'Get a quote',
    text: `<p>A firm price for an onramp: 500 MXN paid by SPEI, USDC sent to the customer's Solana wallet. The quote holds its price until its ${code('expiresAt')}.</p>`,
    surface: 'v2',
    operationId: 'createQuote',
    path: { organizationId: '${CUSTOMER_ID}' },
    status: 201,
    keep: { QUOTE_ID: 'quoteId' },
  },
  {
    id: 'create-the-order',
    title: 'Create the order',
    text: `<p>The order takes the quote's price. It is ${code('created')}, waiting for the customer's SPEI deposit: its answer says where to send it.</p>`,
    surface: 'v2',
    operationId: 'createOrder',
    path: { organizationId: '${CUSTOMER_ID}' },
    body: { quoteId: '${QUOTE_ID}' },
    status: 201,
    keep: { ORDER_ID: 'id' },
  },
  {
    id: 'simulate-the-deposit',
    title: 'Simulate the deposit',
    text: `<p>In the sandbox, the deposit simulator pays the quoted amount: the order becomes ${code('funded')}, then ${code('completed')} about a second later, and each change sends ${code('orderUpdated')} to your URL.</p>`,
    surface: 'v2',
    operationId: 'simulateDeposit',
    path: { organizationId: '${CUSTOMER_ID}', id: '${ORDER_ID}' },
    body: {},
    status: 200,
  },
  {
    id: 'see-the-webhook',
    title: 'See the webhook delivered, and verify it',
    text: `<p>Your URL has received the order's ${code('orderUpdated')} events. Each delivery and its attempts are listed here, with the status your receiver answered: the place to look when a receiver fails.</p>
      <p>Verify every delivery before you trust it: its ${code('X-Signature')} is the HMAC-SHA256 of the body's RFC 8785 canonical JSON, with the ${code('secret')} of the subscription. The <a href="./webhooks.html">verification recipes</a> do it in TypeScript (${code('verifyWebhook')} of @ramp/client), Python, Go and Java (in the repository: ${code('samples/webhooks/')}, and ${code('docs/webhooks.md')}).</p>`,
    surface: 'v2',
    operationId: 'listWebhookDeliveries',
    path: { id: '${SUBSCRIPTION_ID}' },
    status: 200,
  },
];

/** A step's sample in one language, as the page shows it. */
export interface StepSample {
  lang: string;
  label: string;
  source: string;
}

function find(document: Json, operationId: string) {
  for (const [path, item] of Object.entries<Json>(document.paths ?? {})) {
    for (const method of operationMethods) if (item[method]?.operationId === operationId) return { path, method, item, operation: item[method] as Json };
  }
  throw new Error(`the quickstart names ${operationId}, which ${document.info?.title ?? 'the document'} does not have`);
}

/**
 * The operation as the step calls it: its path parameters' examples are the step's values and
 * its request example the step's body, so the samples generator writes the step's request.
 */
function asStep(document: Json, step: QuickstartStep, item: Json, operation: Json): { item: Json; operation: Json } {
  const withValue = (parameter: Json) => {
    const resolved = resolveRef(document, parameter)!;
    const value = resolved.in === 'path' ? step.path?.[resolved.name] : undefined;
    if (value === undefined) return parameter;
    const { examples: _examples, ...rest } = resolved;
    return { ...rest, example: value };
  };
  const body = step.body === undefined ? operation.requestBody : { content: { 'application/json': { example: step.body } } };
  return {
    item: { ...item, parameters: (item.parameters ?? []).map(withValue) },
    operation: { ...operation, parameters: (operation.parameters ?? []).map(withValue), ...(body ? { requestBody: body } : {}) },
  };
}

/** A step's request in the five languages, each the operation's own sample with the step's values. */
export function stepSamples(documents: Record<QuickstartStep['surface'], Json>, step: QuickstartStep): StepSample[] {
  const document = documents[step.surface];
  const found = find(document, step.operationId);
  const { item, operation } = asStep(document, step, found.item, found.operation);
  const left = /<[A-Za-z_]+>/.exec(requestOf(document, found.path, found.method, operation, item).url);
  if (left) throw new Error(`the quickstart's ${step.id} gives ${step.operationId} no value for ${left[0]}`);
  return codeSamplesOf(document, found.path, found.method, operation, item);
}

/** The step's operation on its surface's Redoc page (the file beside this one). */
export function operationLink(documents: Record<QuickstartStep['surface'], Json>, step: QuickstartStep): string {
  const { operation } = find(documents[step.surface], step.operationId);
  return `./${step.surface}.html${redocAnchor(String(operation.tags?.[0] ?? ''), step.operationId)}`;
}

const languages = [codeSampleLanguage, ...sampleLanguages];
const slug = (lang: string) => lang.toLowerCase();

/**
 * One language shows at a time, chosen with radio buttons: CSS alone (`:has`), no script, so
 * the page opens offline under a policy that admits none; a browser without `:has` shows all five.
 */
const style = `
ol.steps>li>h2{margin-top:0}.sample h3{margin-top:.75rem}
pre:focus-visible,input:focus-visible+label{outline:3px solid #1a56d6;outline-offset:2px}
ol.steps{padding:0;list-style:none;display:grid;gap:1.25rem}ol.steps>li{min-width:0}
fieldset.languages{position:sticky;top:0;z-index:1;background:#f6f7f9;border:0;border-bottom:1px solid #c9ced8;margin:0;padding:.5rem 0;display:flex;flex-wrap:wrap;gap:.25rem .5rem;align-items:center}
fieldset.languages legend{float:left;font-weight:600;margin-right:.5rem}
fieldset.languages input{position:absolute;opacity:0;width:1px;height:1px}
fieldset.languages label{padding:.25rem .75rem;border:1px solid #8a93a6;border-radius:999px;cursor:pointer;background:#fff}
fieldset.languages input:checked+label{background:#1a4fb8;border-color:#1a4fb8;color:#fff}
${languages.map(({ lang }) => `body:has(#language-${slug(lang)}:checked) .sample:not([data-lang="${lang}"])`).join(',\n')}{display:none}`;

/** The page: the key, then each step with its operation's link and its request in the five languages. */
export function quickstartPage(documents: Record<QuickstartStep['surface'], Json>, doNotEdit: string): string {
  const steps = quickstartSteps
    .map((step, i) => {
      const samples = stepSamples(documents, step)
        .map(({ lang, label, source }) => `      <div class="sample" data-step="${step.id}" data-lang="${lang}">
        <h3>${escapeHtml(label)}</h3>
        <pre tabindex="0" aria-label="${escapeHtml(`Step ${i + 2}, ${label}`)}"><code>${escapeHtml(source)}</code></pre>
      </div>`)
        .join('\n');
      const keeps = Object.entries(step.keep ?? {}).map(([name, field]) => `${code(name)} to its ${code(field)}`);
      return `    <li id="${step.id}" class="card">
      <h2>${i + 2}. ${escapeHtml(step.title)}</h2>
      ${step.text}
      <p class="meta">Operation <a href="${operationLink(documents, step)}">${code(step.operationId)}</a> (${step.surface}); it answers ${step.status}.${keeps.length ? ` Then set ${keeps.join(' and ')}.` : ''}</p>
${samples}
    </li>`;
    })
    .join('\n');
  const radios = languages
    .map(({ lang, label }, i) => `    <input type="radio" name="language" id="language-${slug(lang)}" value="${lang}"${i === 0 ? ' checked' : ''}><label for="language-${slug(lang)}">${escapeHtml(label)}</label>`)
    .join('\n');
  const body = `<header>
  <nav class="crumbs" aria-label="Breadcrumb"><a href="./index.html">Ramp API reference</a></nav>
  <h1>Quickstart: your first hour with the Ramp sandbox</h1>
  <p>From a key to a completed onramp and its webhook, in ${quickstartSteps.length + 1} steps, each one request against the local sandbox (${code('http://localhost:3000')}). Every snippet reads the key and the ids of the steps before from the environment: set each as its step says.</p>
</header>
<main>
  <fieldset class="languages">
    <legend>Show the requests in</legend>
${radios}
  </fieldset>
  <ol class="steps">
    <li id="get-a-key" class="card">
      <h2>1. Get a key</h2>
      <p>Start the sandbox with ${code('npm start')}: its first lines print a sandbox key, ${code('api_sand:{key_id}:{org_id}')}, of your partner organization. Send it as it is in the ${code('Authorization')} header, with no ${code('Bearer')}. Set it, and the URL your webhooks go to, in the environment the snippets run in:</p>
      <pre tabindex="0" aria-label="Step 1, the environment"><code>export RAMP_API_KEY='api_sand:…'   # as npm start printed it
export WEBHOOK_URL='https://your-receiver.example/ramp'</code></pre>
    </li>
${steps}
  </ol>
</main>
<footer>
  <p class="meta">Every snippet on this page runs in CI, in each language, in this order, against a fresh sandbox (test/samples/quickstart.test.ts).</p>
</footer>`;
  return htmlPage({ title: 'Quickstart: your first hour with the Ramp sandbox', body, doNotEdit, style });
}
