/**
 * The sandbox console in a real Chromium, as a new partner uses it: a wrong key, then the
 * printed key; a customer created, its KYC approved, a payment account registered, a quote,
 * an order, a simulated deposit, and the order completing on its own while the page stays
 * open; a refused simulation; a v2 subscription to a real HTTP receiver, and its delivery
 * with the attempt, the exact body and a signature this test verifies on its own. The sandbox
 * clock frozen and advanced from the page: a quote expiring, an unfunded order canceled at its
 * deadline. v1: an order's simulations following its status, a bank account activated, swaps.
 * Screenshots of each main view go to test-results/console/.
 */
import { createHmac } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, browserAvailable, launchBrowser, seriousAxeViolations } from '../support/browser.ts';
import { expectStatus } from '../support/api.ts';
import { createBankAccount, createWallet } from '../support/v1Money.ts';
import { createCustomer, customerClabe, otherPartner, sandboxClock, solanaAddress } from '../support/fixtures.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { eventually, testBudget, waitBudget } from '../support/wait.ts';
import { startReceiver, type Receiver } from '../support/webhooks.ts';

const screenshots = join(artifactsDir, 'console');

describe.skipIf(!browserAvailable)('the sandbox console in Chromium', () => {
  let server: TestServer;
  let receiver: Receiver;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(screenshots, { recursive: true });
    server = await startTestServer();
    receiver = await startReceiver(() => ({ status: 200, body: '{"ok":true}' }));
    browser = await launchBrowser();
  }, testBudget);

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await server?.close();
  });

  /** A page on the console that records what a partner should never see: other origins, CSP refusals, script errors. */
  async function consolePage(width = 1280, height = 900) {
    const context = await browser.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    const foreign: string[] = [];
    const refused: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(server.url)) foreign.push(request.url());
    });
    page.on('console', (message) => {
      if (message.type() === 'error' && !/status of 4\d\d/.test(message.text())) refused.push(message.text());
    });
    page.on('pageerror', (error) => refused.push(error.message));
    await page.goto(`${server.url}/sandbox/console`);
    return { context, page, foreign, refused };
  }

  const shot = (page: Page, name: string) => page.screenshot({ path: join(screenshots, `${name}.png`), fullPage: true });

  it('says clearly when a key is wrong', async () => {
    const { context, page, foreign } = await consolePage();
    try {
      await page.getByLabel('Sandbox API key').fill('api_sand:0123456789abcdef0123456789abcdef:00000000-0000-4000-8000-000000000000');
      await page.getByRole('button', { name: 'Sign in' }).click();
      const alert = page.getByRole('alert');
      await alert.waitFor({ timeout: waitBudget });
      expect(await alert.textContent()).toMatch(/^Unauthorized \(401 unauthorized\)/);
      await shot(page, 'sign-in-wrong-key');
      // Nothing was kept: a reload asks for the key again.
      await page.reload();
      await page.getByLabel('Sandbox API key').waitFor({ timeout: waitBudget });
      expect(foreign).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('takes an onramp from a new customer to completed, live, and shows its signed delivery', { timeout: testBudget * 2 }, async () => {
    const { context, page, foreign, refused } = await consolePage();
    try {
      // Sign in with the key the sandbox printed.
      await shot(page, 'sign-in');
      await page.getByLabel('Sandbox API key').fill(server.key);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Organizations', level: 1 }).waitFor({ timeout: waitBudget });
      expect(await page.evaluate(() => sessionStorage.getItem('ramp-console-api-key'))).toBe(server.key);
      expect(await page.evaluate(() => localStorage.length)).toBe(0);

      // A webhook subscription to a real receiver, whose secret the page shows once.
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByLabel('URL', { exact: true }).fill(`${receiver.url}/ramp`);
      await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
      const secret = (await page.locator('#new-secret code').textContent({ timeout: waitBudget }))!;
      expect(secret).toMatch(/^[A-Za-z0-9_-]{43}=$/);
      await shot(page, 'webhooks');

      // A customer, created and approved.
      await page.getByRole('link', { name: 'Organizations' }).click();
      await page.getByLabel('Name').fill('María Gómez Martínez');
      await page.getByRole('button', { name: 'Create customer' }).click();
      const customerLink = page.getByRole('link', { name: 'María Gómez Martínez' });
      await customerLink.waitFor({ timeout: waitBudget });
      await eventually(async () => (await page.locator('#customers .status').first().textContent()) === 'notStarted', waitBudget, 'KYC status in the list');
      await shot(page, 'organizations');
      await customerLink.click();
      await page.getByRole('heading', { name: 'María Gómez Martínez', level: 1 }).waitFor({ timeout: waitBudget });
      await page.getByRole('button', { name: 'Approve KYC' }).click();
      await eventually(async () => (await page.locator('#verification-status').textContent()) === 'approved', waitBudget, 'KYC approved');

      // A payment account, then a quote and an order.
      await page.getByLabel('CLABE (18 digits)').fill(customerClabe());
      await page.getByLabel('Account holder').fill('María Gómez Martínez');
      await page.getByLabel('Tax id (RFC)').fill('GOMM900101AB3');
      await page.getByRole('button', { name: 'Register bank account' }).click();
      await page.locator('#payment-accounts tbody tr').first().waitFor({ timeout: waitBudget });
      await page.getByLabel('Wallet address').fill(solanaAddress());
      await page.getByRole('button', { name: 'Get quote' }).click();
      await page.locator('#quotes tbody tr').first().waitFor({ timeout: waitBudget });
      await shot(page, 'organization');
      await page.getByRole('button', { name: 'Create order' }).click();
      await page.getByRole('heading', { name: /^Order / }).waitFor({ timeout: waitBudget });
      const orderId = page.url().split('/').pop()!;
      expect(await page.locator('#order-status').textContent()).toBe('created');
      await shot(page, 'order-created');

      // The deposit; the order completes on its own and the page shows it without a reload.
      await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
      await page.locator('#applicable-simulations').getByRole('button', { name: 'Deposit the funds' }).click();
      await eventually(async () => (await page.locator('#order-status').textContent()) === 'completed', waitBudget, 'the order to complete on the page');
      expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
      await eventually(async () => (await page.locator('#timeline li .status').allTextContents()).join(' ') === 'created funded completed', waitBudget, 'the timeline');
      await shot(page, 'order-completed');

      // A simulation the API refuses shows its problem.
      await page.getByText('Other simulations').click();
      await page.locator('#other-simulations').getByRole('button', { name: 'Deliver' }).click();
      // Under the row of buttons, not among them.
      const refusal = page.locator('#other-simulations + [role="alert"]');
      await refusal.waitFor({ timeout: waitBudget });
      expect(await refusal.textContent()).toBe('Conflict (409 conflict)deliver is not allowed from completed; it needs a funded order.');
      await shot(page, 'order-refused-simulation');

      // The delivery of the completion: its attempt, the body sent and a signature that verifies.
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByRole('link', { name: 'orderUpdated' }).click();
      await page.getByRole('heading', { name: 'Deliveries' }).waitFor({ timeout: waitBudget });
      const completed = page.locator('details.delivery').filter({ hasText: '"status":"completed"' });
      await eventually(async () => (await completed.count()) === 1 && (await completed.locator('summary .status').textContent()) === 'delivered', waitBudget, 'the delivery of completed');
      await completed.locator('summary').first().click();
      const body = (await completed.locator('pre.body').textContent())!;
      const signature = (await completed.locator('.signature').textContent())!;
      expect(JSON.parse(body)).toMatchObject({ event: 'orderUpdated', order: { id: orderId, status: 'completed' } });
      expect(signature).toBe(`sha256=${createHmac('sha256', Buffer.from(secret, 'base64url')).update(body, 'utf8').digest('hex')}`);
      const got = receiver.received.filter((r) => r.raw.toString('utf8') === body);
      expect(got).toHaveLength(1);
      expect(got[0]!.headers['x-signature']).toBe(signature);
      expect(await completed.locator('tr.attempt .answer').allTextContents()).toEqual(['HTTP 200']);
      expect(await completed.locator('tr.attempt .excerpt').allTextContents()).toEqual(['{"ok":true}']);
      await shot(page, 'delivery');

      await page.getByRole('link', { name: 'Events' }).click();
      await page.getByRole('heading', { name: 'Events' }).waitFor({ timeout: waitBudget });
      await shot(page, 'events');

      // Keyboard: a new page puts the focus on its heading; Tab moves on, with a visible focus ring.
      await eventually(() => page.evaluate(() => document.activeElement?.tagName === 'H1' && document.activeElement.textContent === 'Events'), waitBudget, 'the heading focused');
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => ({ tag: document.activeElement?.tagName, outline: getComputedStyle(document.activeElement!).outlineStyle }));
      expect(['A', 'SUMMARY', 'BUTTON', 'SELECT']).toContain(focused.tag);
      expect(focused.outline).not.toBe('none');

      expect(foreign).toEqual([]);
      expect(refused).toEqual([]);
    } finally {
      await context.close();
    }
  });

  /** Signed in with `key` on the console's Organizations page. */
  async function signedIn(key: string) {
    const opened = await consolePage();
    await opened.page.getByLabel('Sandbox API key').fill(key);
    await opened.page.getByRole('button', { name: 'Sign in' }).click();
    await opened.page.getByRole('heading', { name: 'Organizations', level: 1 }).waitFor({ timeout: waitBudget });
    return opened;
  }

  const texts = (page: Page, selector: string) => page.locator(selector).allTextContents();

  it('freezes the sandbox clock, expires a quote and cancels an unfunded order by advancing it', { timeout: testBudget * 2 }, async () => {
    // A partner of its own: its clock stays frozen without touching the other tests' partner.
    const partner = await otherPartner(server);
    const api = server.as(partner.key);
    const customer = await createCustomer(server, { key: partner.key, displayName: 'Reloj Congelado', type: 'personal', approved: true });
    const clockNow = sandboxClock(api).read;
    const { context, page, foreign, refused } = await signedIn(partner.key);
    try {
      // Frozen: the page says so and shows the partner's sandbox time, which the API reports.
      expect(await page.locator('#clock-state .status').textContent()).toBe('running');
      await page.getByRole('button', { name: 'Freeze clock' }).click();
      await eventually(async () => (await page.locator('#clock-state .status').textContent()) === 'frozen', waitBudget, 'the clock frozen');
      const frozen = await clockNow();
      expect(frozen.frozen).toBe(true);
      expect(await page.locator('#clock-now time').getAttribute('datetime')).toBe(frozen.now);
      await page.getByRole('button', { name: 'Let it run' }).waitFor({ timeout: waitBudget });
      await shot(page, 'clock-frozen');

      // A quote, firm for five minutes of the frozen clock.
      await page.getByRole('link', { name: 'Reloj Congelado' }).click();
      await page.getByRole('heading', { name: 'Reloj Congelado', level: 1 }).waitFor({ timeout: waitBudget });
      await page.getByLabel('Wallet address').fill(solanaAddress());
      await page.getByRole('button', { name: 'Get quote' }).click();
      const quoteRow = page.locator('#quotes tbody tr').first();
      await quoteRow.waitFor({ timeout: waitBudget });
      const quoteId = (await quoteRow.getAttribute('data-quote'))!;
      expect(await quoteRow.locator('.expiry .muted').textContent()).toBe('in 5:00');
      // The quote's expiry is the next change due on the frozen clock (issue 34).
      const expiresAt = await quoteRow.locator('.expiry time').getAttribute('datetime');
      await eventually(async () => (await page.locator('#clock-next-due time').getAttribute('datetime')) === expiresAt, waitBudget, 'the quote as the next change due');

      // 5 min 1 s later the quote has expired, and the page shows what the advance applied.
      await page.getByLabel('Advance by (ISO 8601 duration)').fill('PT5M1S');
      await page.getByRole('button', { name: 'Advance', exact: true }).click();
      await eventually(async () => (await page.locator('#advance-answer [data-count="quoteExpired"]').textContent()) === '1', waitBudget, 'the advance answered');
      expect(await page.locator(`#advance-answer tr[data-transition="${quoteId}"] td`).first().textContent()).toBe('quoteExpired');
      // Only the kinds it applied.
      expect(await texts(page, '#advance-answer dd')).toEqual(['1']);
      await eventually(async () => (await quoteRow.locator('.expiry .status').textContent()) === 'expired', waitBudget, 'the quote expired on the page');
      const advanced = await clockNow();
      expect(Date.parse(advanced.now) - Date.parse(frozen.now)).toBe(301_000);
      expect(await page.locator('#clock-now time').getAttribute('datetime')).toBe(advanced.now);
      expect(await page.locator('#clock-state .status').textContent()).toBe('frozen');
      await shot(page, 'clock-advanced-quote-expired');

      // An expired quote offers no order, and says why; a new one makes an unfunded order.
      expect(await quoteRow.getByRole('button', { name: 'Create order' }).count()).toBe(0);
      expect(await quoteRow.locator('.quote-order').textContent()).toBe('Expired: the API refuses an order (quote-expired); get a new quote.');
      await page.getByRole('button', { name: 'Get quote' }).click();
      await eventually(async () => (await page.locator('#quotes tbody tr').count()) === 2, waitBudget, 'the second quote');
      await page.locator('#quotes tbody tr').first().getByRole('button', { name: 'Create order' }).click();
      await page.getByRole('heading', { name: /^Order / }).waitFor({ timeout: waitBudget });
      const orderId = page.url().split('/').pop()!;
      const unfunded = expectStatus(await api.GET('/organization/{organizationId}/order/{id}', { params: { path: { organizationId: customer, id: orderId } } }), 200);
      const deadline = unfunded.fundingInstructions!.expiresAt;
      expect(Date.parse(deadline)).toBeGreaterThan(Date.parse(advanced.now));
      await eventually(async () => (await page.locator('#clock-next-due time').getAttribute('datetime')) === deadline, waitBudget, 'the deadline as the next change due');

      // An hour later the order is canceled at its deadline: status, timeline and the advance's answer.
      await page.getByRole('button', { name: '+1 h' }).click();
      await eventually(async () => (await page.locator('#order-status').textContent()) === 'canceled', waitBudget, 'the order canceled on the page');
      await eventually(async () => (await texts(page, '#timeline li .status')).join(' ') === 'created canceled', waitBudget, 'the timeline');
      expect(await page.locator('#timeline li').last().locator('time').getAttribute('datetime')).toBe(deadline);
      expect(await page.locator(`#advance-answer tr[data-transition="${orderId}"] td`).first().textContent()).toBe('orderFundingExpired');
      expect(await page.locator(`#advance-answer tr[data-transition="${orderId}"] time`).getAttribute('datetime')).toBe(deadline);
      expect(await page.locator('#clock-next-due').textContent()).toBe('nothing scheduled');
      await shot(page, 'clock-order-canceled');

      // The feed shows the event the advance recorded.
      await page.getByRole('link', { name: 'Events' }).click();
      await eventually(async () => (await page.locator('main li', { hasText: `order ${orderId.slice(0, 8)}` }).locator('.status').textContent()) === 'canceled', waitBudget, 'the cancellation in the feed');

      expect(foreign).toEqual([]);
      expect(refused).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('offers a v1 order the simulations of its status, activates a v1 bank account and lists swaps', { timeout: testBudget * 2 }, async () => {
    const customer = await createCustomer(server, { approved: true });
    const wallet = await createWallet(server, customer);
    const usable = await createBankAccount(server, customer);
    const pending = await createBankAccount(server, customer, { usable: false });
    const order = expectStatus(await server.api.POST('/ramp/order', { body: { customerId: customer, type: 'offramp', sourceAmount: '100.000000', bankAccountId: usable.internalAccountId, walletId: wallet.id, token: 'CETES' } }), 201);
    const swap = expectStatus(await server.api.POST('/ramp/swap', { body: { customerId: customer, walletId: wallet.id, sourceToken: 'USDC', targetToken: 'CETES', sourceAmount: '10' } }), 201);
    expect([order.status, swap.status]).toEqual(['created', 'created']);
    const { context, page, foreign, refused } = await signedIn(server.key);
    try {
      await page.evaluate((id) => (location.hash = `#/v1order/${id}`), order.id);
      await page.getByRole('heading', { name: /^v1 order / }).waitFor({ timeout: waitBudget });
      const actions = (selector: string) => page.locator(selector).evaluateAll((buttons) => buttons.map((b) => b.getAttribute('data-action')));
      const applicable = () => actions('#applicable-simulations button');
      expect(await applicable()).toEqual(['burnConfirmed', 'fail', 'expireTransaction']);
      await shot(page, 'v1-order-created');
      expect(await seriousAxeViolations(page), 'the v1 order page').toEqual([]);
      await page.locator('#applicable-simulations').getByRole('button', { name: 'Burn confirmed' }).click();
      await eventually(async () => (await page.locator('#order-status').textContent()) === 'funded', waitBudget, 'the order funded');
      await eventually(async () => (await applicable()).join(' ') === 'fiatSent fail', waitBudget, 'the buttons of funded');
      expect(await actions('#other-simulations button')).toEqual(['fiatReceived', 'burnConfirmed', 'tokensDelivered', 'reversalWindowPassed', 'expireTransaction']);
      await shot(page, 'v1-order-funded');

      await page.evaluate((id) => (location.hash = `#/organization/${id}`), customer);
      const row = page.locator(`#v1-bank-accounts tr[data-bank-account="${pending.internalAccountId}"]`);
      await row.waitFor({ timeout: waitBudget });
      expect(await row.locator('.status').textContent()).toBe('bank_account_pending');
      expect(await texts(page, `#v1-bank-accounts tr[data-bank-account="${pending.internalAccountId}"] button[data-action]`)).toEqual(['Set awaiting deposit verification', 'Set active', 'Set inactive']);
      await row.getByRole('button', { name: 'Set active' }).click();
      await eventually(async () => (await row.locator('.status').textContent()) === 'bank_account_active', waitBudget, 'the bank account active');
      expect(expectStatus(await server.api.GET('/ramp/bank-account/{id}', { params: { path: { id: pending.internalAccountId } } }), 200)).toMatchObject({ status: 'bank_account_active', compliant: true });
      expect(await texts(page, `#v1-bank-accounts tr[data-bank-account="${pending.internalAccountId}"] button[data-action]`)).toEqual(['Set pending', 'Set awaiting deposit verification', 'Set inactive']);

      const swapRow = page.locator(`#v1-swaps tr[data-swap="${swap.id}"]`);
      await swapRow.waitFor({ timeout: waitBudget });
      // Each swap simulation in words, as the order's are, with what it stands for.
      const swapButtons = () => texts(page, `#v1-swaps tr[data-swap="${swap.id}"] button[data-action]`);
      expect(await swapButtons()).toEqual(['Send confirmed', 'Fail', 'Expire']);
      expect(await swapRow.getByRole('button', { name: 'Send confirmed' }).getAttribute('title')).toBe('the source tokens arrived');
      await swapRow.getByRole('button', { name: 'Send confirmed' }).click();
      await eventually(async () => (await swapRow.locator('.status').textContent()) === 'funded', waitBudget, 'the swap funded');
      expect(await swapButtons()).toEqual(['Funds received', 'Delivered', 'Fail']);
      await shot(page, 'v1-customer');

      expect(foreign).toEqual([]);
      expect(refused).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('reads at phone width', async () => {
    const { context, page } = await consolePage(390, 844);
    try {
      await page.getByLabel('Sandbox API key').fill(server.key);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Organizations', level: 1 }).waitFor({ timeout: waitBudget });
      // Nothing wider than the screen: no sideways scrolling.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await shot(page, 'organizations-phone');
    } finally {
      await context.close();
    }
  });
});
