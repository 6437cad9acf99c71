/**
 * The "Sandbox console" story of docs/sandbox.md in a real Chromium, as written, to the end, checked by
 * what the page shows (issue 34): a bank account refused before the KYC is approved (its
 * problem on the page and in the request log), approved, registered with the tax id left
 * empty; a quote and an order; the deposit; the actions offered per status, the clock each
 * time is on; webhooks (subscribe, delete, a re-send standing in for the test event the API
 * lacks, how many new deliveries each re-send made, deliveries filtered by status); the event
 * feed's numbering, filters and links; what the request log leaves out; copy buttons; and
 * axe-core finds no serious or critical violation on any view.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, browserAvailable, launchBrowser, seriousAxeViolations } from '../support/browser.ts';
import { expectStatus } from '../support/api.ts';
import { createCustomer, solanaAddress } from '../support/fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { eventually, testBudget, waitBudget } from '../support/wait.ts';
import { startReceiver, type Receiver } from '../support/webhooks.ts';

const screenshots = join(artifactsDir, 'console');
/** The story's CLABE. */
const readmeClabe = '002010077777777771';
/** The guide whose story this is, as one line without its emphasis marks: where it quotes the page, the two agree word for word. */
const guide = () => readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'sandbox.md'), 'utf8').replace(/\s+/g, ' ').replaceAll('*', '');

describe.skipIf(!browserAvailable)("the sandbox guide's console story in Chromium", () => {
  let server: TestServer;
  let browser: Browser;
  let receiver: Receiver;
  beforeAll(async () => {
    mkdirSync(screenshots, { recursive: true });
    server = await startTestServer();
    // The partner's receiver: /ramp refuses its first delivery for good (410), then takes them; /slow never answers.
    receiver = await startReceiver((path, count) => (path === '/slow' ? 'hang' : path === '/ramp' && count === 1 ? 410 : 200));
    browser = await launchBrowser();
  }, testBudget);
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await server?.close();
  });

  const texts = (page: Page, selector: string) => page.locator(selector).allTextContents();
  const shot = (page: Page, name: string) => page.screenshot({ path: join(screenshots, `${name}.png`), fullPage: true });
  /** Every time on the page says which clock it is on, in words. */
  async function expectLabeledClocks(page: Page, where: string) {
    const times = await page.locator('time').evaluateAll((nodes) => nodes.map((n) => ({ clock: n.closest('.when')?.getAttribute('data-clock'), label: n.closest('.when')?.querySelector('.clock')?.textContent })));
    expect(times.length, where).toBeGreaterThan(0);
    for (const time of times) expect([`${time.clock}:${time.label}`], where).toContainEqual(expect.stringMatching(/^(sandbox:sandbox time|real:real time)$/));
  }
  const accessible = async (page: Page, view: string) => expect(await seriousAxeViolations(page), view).toEqual([]);

  it('walks it from sign-in to a completed order, and the page keeps every promise it makes', { timeout: testBudget * 3 }, async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const page = await context.newPage();
    try {
      await page.goto(`${server.url}/sandbox/console`);
      await accessible(page, 'sign-in');
      await page.getByLabel('Sandbox API key').fill(server.key);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Organizations', level: 1 }).waitFor({ timeout: waitBudget });
      await page.locator('#api-keys tbody tr').first().waitFor({ timeout: waitBudget });
      expect(await texts(page, '#api-keys code')).toEqual([server.key.slice(0, 16)]);
      await expectLabeledClocks(page, 'organizations');
      expect(await page.locator('#live .when').getAttribute('data-clock')).toBe('real');
      await accessible(page, 'organizations');

      // Create a customer, open it.
      await page.getByLabel('Name').fill('María Gómez Martínez');
      await page.getByRole('button', { name: 'Create customer' }).click();
      await page.getByRole('link', { name: 'María Gómez Martínez' }).click();
      await page.getByRole('heading', { name: 'María Gómez Martínez', level: 1 }).waitFor({ timeout: waitBudget });
      expect(await texts(page, 'nav.crumbs li')).toEqual(['Organizations', 'María Gómez Martínez']);
      const customerId = page.url().split('/').pop()!;

      // Before approval the tax id is required, as the hint says; the refusal shows its problem.
      const taxHint = page.locator('#register-payment-account small');
      expect(await taxHint.textContent()).toBe('Required until the KYC is approved: there is no verified tax id yet.');
      await page.getByLabel('CLABE (18 digits)').fill(readmeClabe);
      await page.getByLabel('Account holder').fill('María Gómez Martínez');
      await page.getByRole('button', { name: 'Register bank account' }).click();
      const refusal = page.locator('#register-payment-account [role="alert"]');
      expect(await refusal.textContent({ timeout: waitBudget })).toContain('Registration info required (422 registration-info-required)');
      expect(await refusal.textContent()).toContain('missing: /registrationInfo/taxId');

      // Approve KYC: a final decision, after which no decision is offered.
      await page.getByRole('button', { name: 'Approve KYC' }).click();
      await eventually(async () => (await page.locator('#verification-status').textContent()) === 'approved', waitBudget, 'KYC approved');
      await page.locator('#verification-final').waitFor({ timeout: waitBudget });
      expect(await page.getByRole('button', { name: /^(Approve|Deny) KYC$/ }).count()).toBe(0);

      // The story's bank account, the tax id left empty as the hint now says.
      expect(await taxHint.textContent()).toBe('Leave empty to use the tax id of the approved KYC.');
      await page.getByRole('button', { name: 'Register bank account' }).click();
      const account = page.locator('#payment-accounts tbody tr').first();
      await account.waitFor({ timeout: waitBudget });
      const accountId = (await account.getAttribute('data-payment-account'))!;
      const registered = expectStatus(await server.api.GET('/organization/{organizationId}/payment_account/{id}', { params: { path: { organizationId: customerId, id: accountId } } }), 200);
      expect(registered.registrationInfo).toEqual({ accountHolderName: 'María Gómez Martínez', taxId: 'SBXP800101AB1' });
      // The rail makes the destination ready by itself: only the source is offered then, and nothing once both are.
      await eventually(async () => (await texts(page, `#payment-accounts tr[data-payment-account="${accountId}"] button[data-action]`)).join() === 'Make source ready', waitBudget, 'the destination ready');
      await account.getByRole('button', { name: 'Make source ready' }).click();
      await eventually(async () => (await account.textContent())!.includes('Both directions ready: nothing to simulate.'), waitBudget, 'both ready');
      // Copy buttons give the exact values.
      await account.getByRole('button', { name: 'Copy CLABE' }).click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(readmeClabe);
      await account.getByRole('button', { name: 'Copy payment account id' }).click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(accountId);
      await accessible(page, 'organization');

      // An offramp quote takes the offramp's assets and a payment account chosen by CLABE.
      await page.getByLabel('Type', { exact: true }).selectOption('offramp');
      expect(await page.getByLabel('Source asset').inputValue()).toBe('USDC');
      expect(await page.getByLabel('Target asset').inputValue()).toBe('MXN');
      expect(await page.getByLabel('Payment account (receives the pesos)').locator('option').allTextContents()).toEqual([`${readmeClabe} (ready)`]);
      await page.getByLabel('Type', { exact: true }).selectOption('onramp');
      expect(await page.getByLabel('Source asset').inputValue()).toBe('MXN');

      // Type a wallet address, Get quote, Create order.
      await page.getByLabel('Wallet address').fill(solanaAddress());
      await page.getByRole('button', { name: 'Get quote' }).click();
      const quote = page.locator('#quotes tbody tr').first();
      await quote.waitFor({ timeout: waitBudget });
      await expectLabeledClocks(page, 'organization');
      await quote.getByRole('button', { name: 'Create order' }).click();
      await page.getByRole('heading', { name: /^Order / }).waitFor({ timeout: waitBudget });
      const orderId = page.url().split('/').pop()!;
      expect(await texts(page, 'nav.crumbs li')).toEqual(['Organizations', 'María Gómez Martínez', `Order ${orderId.slice(0, 8)}`]);
      expect(await page.locator('#fund-it').textContent()).toMatch(/^send 200\.00 MXN to /);
      expect(await page.locator('#applicable-simulations button').evaluateAll((b) => b.map((e) => e.getAttribute('data-action')))).toEqual(['deposit', 'fail', 'expireFunding', 'replaceFundingInstructions']);
      await expectLabeledClocks(page, 'order');
      await accessible(page, 'order created');

      // Deposit: it completes by itself, live; funding instructions and deposit are no longer offered.
      await page.locator('#applicable-simulations').getByRole('button', { name: 'Deposit the funds' }).click();
      await eventually(async () => (await page.locator('#order-status').textContent()) === 'completed', waitBudget, 'the order completed');
      await eventually(async () => (await texts(page, '#timeline li .status')).join(' ') === 'created funded completed', waitBudget, 'the timeline');
      expect(await page.locator('#fund-it').count()).toBe(0);
      expect(await page.locator('#applicable-simulations [data-action="deposit"]').count()).toBe(0);
      await eventually(async () => (await page.locator('#requests [data-operation="createOrder"]').count()) === 1, waitBudget, 'the order page lists its requests');
      await shot(page, 'story-order-completed');

      // The quote is ordered: it links its order instead of offering another.
      await page.getByRole('link', { name: 'María Gómez Martínez' }).click();
      await eventually(async () => (await quote.locator('.quote-order').textContent()) === `Ordered: order ${orderId.slice(0, 8)}`, waitBudget, 'the quote ordered');

      await webhooksChecks(page);
      await eventsChecks(page, customerId);
      await requestLogChecks(page, customerId);
    } finally {
      await context.close();
    }
  });

  /**
   * The story's webhooks: subscribe and delete; the page says the API has no disable and no test
   * event, and a re-send from an event's page stands in for one; each re-send says how many new
   * deliveries it made (a pending one is not doubled); a subscription's deliveries by status.
   */
  async function webhooksChecks(page: Page) {
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor({ timeout: waitBudget });
    const noDisable = 'The API has no operation to disable a subscription or to send a test event: delete the subscription and subscribe again later; to test a receiver, open a v2 event under Events and press Re-send this event';
    expect((await page.locator('#no-disable-no-test').textContent())!.replace(/\s+/g, ' ')).toBe(`${noDisable}.`);
    expect(guide()).toContain(noDisable);
    const subscriptions = page.locator('#v2-subscriptions tbody tr');
    const subscription = (path: string) => subscriptions.filter({ hasText: `${receiver.url}${path}` });
    for (const [i, path] of ['/spare', '/ramp', '/slow'].entries()) {
      await page.getByLabel('URL', { exact: true }).fill(`${receiver.url}${path}`);
      await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
      await eventually(async () => (await subscriptions.count()) === i + 1, waitBudget, `the subscription to ${path}`);
    }
    expect(await page.locator('#new-secret code').textContent()).toMatch(/^[A-Za-z0-9_-]{43}=$/);
    await subscription('/spare').getByRole('button', { name: 'Delete' }).click();
    await eventually(async () => (await subscription('/spare').count()) === 0, waitBudget, 'the subscription deleted');
    expect(await subscriptions.count()).toBe(2);
    const left = expectStatus(await server.api.GET('/webhook_subscriptions', { params: { query: { pageSize: 100 } } }), 200).items.map((s) => s.url);
    expect(left.sort()).toEqual([`${receiver.url}/ramp`, `${receiver.url}/slow`]);
    await accessible(page, 'webhooks');

    // A test event: the completed order's orderUpdated, re-sent from its page, reaches both subscriptions made after it.
    await page.locator('#no-disable-no-test').getByRole('link', { name: 'Events' }).click();
    await page.getByRole('heading', { name: 'Events', level: 1 }).waitFor({ timeout: waitBudget });
    await page.getByLabel('Event type').selectOption('v2 orderUpdated');
    await page.locator('ol.events > li').first().getByRole('link', { name: 'deliveries' }).click();
    await page.getByRole('heading', { name: /^Event #\d+: orderUpdated$/ }).waitFor({ timeout: waitBudget });
    await eventually(async () => (await page.locator('#event-deliveries .empty').textContent()) === 'No subscription of v2 orderUpdated received it.', waitBudget, 'no delivery before the re-send');
    const said = page.locator('#event .resend-said');
    await page.getByRole('button', { name: 'Re-send this event' }).click();
    expect(await said.textContent({ timeout: waitBudget })).toBe('Re-sent: 2 new deliveries.');
    const card = (path: string) => page.locator('#event-deliveries details.delivery').filter({ hasText: `${receiver.url}${path}` });
    const statusOf = (path: string) => card(path).locator(':scope > summary > .status').allTextContents();
    // /ramp refused it for good; /slow has not answered: still pending, so a second re-send makes it no second delivery.
    await eventually(async () => (await statusOf('/ramp')).join() === 'abandoned', waitBudget, 'the first delivery abandoned');
    expect(await statusOf('/slow')).toEqual(['pending']);
    await page.getByRole('button', { name: 'Re-send this event' }).click();
    await eventually(async () => (await said.textContent()) === 'Re-sent: 1 new delivery; 1 already pending, which a re-send does not double.', waitBudget, 'the second re-send said');
    expect(guide()).toContain('(Re-sent: 1 new delivery; 1 already pending, which a re-send does not double.)');
    await eventually(async () => (await statusOf('/ramp')).join() === 'delivered,abandoned', waitBudget, 'the second delivery delivered');
    expect(await statusOf('/slow')).toEqual(['pending']);

    // The subscription's deliveries, filtered by each status of the contract.
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await subscription('/ramp').getByRole('link', { name: 'orderUpdated' }).click();
    await page.getByRole('heading', { name: 'Deliveries', level: 1 }).waitFor({ timeout: waitBudget });
    // The page names the subscription by its id until the subscription is read.
    await eventually(async () => (await page.locator('#subscription-name strong').textContent()) === `v2 orderUpdated → ${receiver.url}/ramp`, waitBudget, 'the subscription named');
    const cards = page.locator('details.delivery');
    const statuses = () => cards.locator(':scope > summary > .status').allTextContents();
    await eventually(async () => (await statuses()).join() === 'delivered,abandoned', waitBudget, 'both deliveries listed');
    const filter = page.getByLabel('Status');
    expect(await filter.locator('option').allTextContents()).toEqual(['any status', 'pending', 'delivered', 'abandoned']);
    await filter.selectOption('abandoned');
    await eventually(async () => (await statuses()).join() === 'abandoned', waitBudget, 'the abandoned delivery alone');
    await cards.first().locator('summary').first().click();
    expect(await cards.first().locator('tr.attempt .answer').allTextContents()).toEqual(['HTTP 410']);
    await expectLabeledClocks(page, 'deliveries');
    await accessible(page, 'deliveries');
    await filter.selectOption('delivered');
    await eventually(async () => (await statuses()).join() === 'delivered', waitBudget, 'the delivered one alone');
    expect(await cards.first().locator(':scope > summary > .gen').textContent()).toBe('re-send');
    await filter.selectOption('pending');
    await eventually(async () => (await page.locator('main .empty').textContent()) === 'No deliveries pending yet.', waitBudget, 'no pending delivery');
    await shot(page, 'story-deliveries');
  }

  /** The feed numbered by cursor, newest first, filterable, each event's generation and subject link, and one event with its deliveries. */
  async function eventsChecks(page: Page, customerId: string) {
    // A second customer, so that the organization filter has something to leave out.
    const otherId = await createCustomer(server, { displayName: 'Otra Cliente', approved: true });
    await page.getByRole('link', { name: 'Events' }).click();
    await page.getByRole('heading', { name: 'Events', level: 1 }).waitFor({ timeout: waitBudget });
    const feed = expectStatus(await server.api.GET('/sandbox/events', { params: { query: { pageSize: 100 } } }), 200);
    await eventually(async () => (await page.locator('ol.events > li').count()) === feed.items.length, waitBudget, 'every event shown');
    const cursors = feed.items.map((e) => e.cursor).reverse();
    expect(await texts(page, 'ol.events > li .cursor')).toEqual(cursors.map((c) => `#${c}`));
    expect(cursors).toEqual(cursors.map((_, i) => cursors.length - i));
    expect(new Set(await texts(page, 'ol.events > li .gen'))).toEqual(new Set(['v1', 'v2']));
    const kyc = page.locator('ol.events > li', { hasText: 'kycUpdated' }).filter({ hasText: 'María Gómez Martínez' }).first();
    expect(await kyc.getByRole('link', { name: `organization ${customerId.slice(0, 8)}` }).getAttribute('href')).toBe(`#/organization/${customerId}`);
    await expectLabeledClocks(page, 'events');
    await accessible(page, 'events');
    // Filtered by organization: exactly its events, each naming it.
    for (const [id, name] of [[customerId, 'María Gómez Martínez'], [otherId, 'Otra Cliente']] as const) {
      const its = feed.items.filter((e) => e.organizationId === id).map((e) => `#${e.cursor}`).reverse();
      expect(its.length, name).toBeGreaterThan(0);
      expect(its.length, name).toBeLessThan(feed.items.length);
      await page.getByLabel('Organization').selectOption({ label: name });
      await eventually(async () => (await texts(page, 'ol.events > li .cursor')).join() === its.join(), waitBudget, `the events of ${name}`);
      expect(new Set(await texts(page, 'ol.events > li > .muted'))).toEqual(new Set([name]));
    }
    await page.getByLabel('Organization').selectOption({ label: 'every organization' });
    await page.getByLabel('Event type').selectOption('v2 orderUpdated');
    await eventually(async () => (await texts(page, 'ol.events > li strong')).every((t) => t === 'orderUpdated'), waitBudget, 'the type filter');
    expect(await page.locator('ol.events > li').count()).toBe(2);
    await page.locator('ol.events > li').first().getByRole('link', { name: 'deliveries' }).click();
    await page.getByRole('heading', { name: /^Event #\d+: orderUpdated$/ }).waitFor({ timeout: waitBudget });
    await accessible(page, 'event');
  }

  /** The refused registration in the request log, with its problem, filtered by status, and linked to the customer. */
  async function requestLogChecks(page: Page, customerId: string) {
    await page.getByRole('link', { name: 'Requests' }).click();
    await page.getByRole('heading', { name: 'Requests', level: 1 }).waitFor({ timeout: waitBudget });
    // What the page says the log holds, as the guide quotes it, is what it holds: the console's own
    // requests (its re-send), not its polled reads of the feed, of deliveries and of the log.
    const scope = (await page.locator('#requests-scope').textContent())!.replace(/\s+/g, ' ');
    expect(scope).toContain("Every API request your keys made, the console's included, newest first");
    const leftOut = 'Left out: the successful reads of the event feed, of webhook deliveries and of this log, which the console repeats every second (their refusals are kept).';
    expect(scope).toContain(leftOut);
    expect(guide()).toContain(`(${leftOut})`);
    const logged = () => page.locator('li.request').evaluateAll((items) => items.map((i) => `${i.getAttribute('data-operation')} ${i.getAttribute('data-status')}`));
    await eventually(async () => (await logged()).includes('resendWebhookEvent 202'), waitBudget, "the console's re-send in the log");
    expect((await logged()).filter((entry) => /^listSandbox(Events|WebhookDeliveries|Requests) 2/.test(entry))).toEqual([]);
    await page.getByLabel('Status').selectOption('4xx');
    const statuses = () => page.locator('li.request').evaluateAll((items) => items.map((i) => `${i.getAttribute('data-operation')} ${i.getAttribute('data-status')}`));
    await eventually(async () => (await statuses()).join() === 'createPaymentAccount 422', waitBudget, 'the refused request alone');
    const refused = page.locator('li.request[data-operation="createPaymentAccount"]');
    await refused.locator('summary').first().click();
    expect(await refused.getByRole('alert').textContent()).toContain('Registration info required (422 registration-info-required)');
    expect(await refused.locator('pre.body').first().textContent()).not.toContain('taxId');
    await expectLabeledClocks(page, 'requests');
    await accessible(page, 'requests');
    await shot(page, 'story-request-log');
    await refused.locator(`a[data-object="${customerId}"]`).click();
    await page.getByRole('heading', { name: 'María Gómez Martínez', level: 1 }).waitFor({ timeout: waitBudget });
    await eventually(async () => (await page.locator('#requests [data-operation="createPaymentAccount"]').count()) >= 2, waitBudget, 'the customer lists its requests');

    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor({ timeout: waitBudget });
    await accessible(page, 'webhooks');
  }
});
