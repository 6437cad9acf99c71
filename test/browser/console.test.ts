/**
 * The sandbox console in a real Chromium, as a new partner uses it: a wrong key, then the
 * printed key; a customer created, its KYC approved, a payment account registered, a quote,
 * an order, a simulated deposit, and the order completing on its own while the page stays
 * open; a refused simulation; a v2 subscription to a real HTTP receiver, and its delivery
 * with the attempt, the exact body and a signature this test verifies on its own.
 * Screenshots of each main view go to test-results/console/.
 */
import { createHmac } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactsDir, browserAvailable, launchBrowser } from '../support/browser.ts';
import { customerClabe, solanaAddress } from '../support/money.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { eventually, testBudget, waitBudget } from '../support/wait.ts';
import { startReceiver, type Receiver } from '../webhooks/support.ts';

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
      await page.locator('#applicable-simulations').getByRole('button', { name: 'deposit' }).click();
      await eventually(async () => (await page.locator('#order-status').textContent()) === 'completed', waitBudget, 'the order to complete on the page');
      expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
      await eventually(async () => (await page.locator('#timeline li .status').allTextContents()).join(' ') === 'created funded completed', waitBudget, 'the timeline');
      await shot(page, 'order-completed');

      // A simulation the API refuses shows its problem.
      await page.getByText('Other simulations').click();
      await page.locator('#other-simulations').getByRole('button', { name: 'deliver' }).click();
      const refusal = page.locator('#other-simulations [role="alert"]');
      await refusal.waitFor({ timeout: waitBudget });
      expect(await refusal.textContent()).toBe('Conflict (409 conflict)deliver is not allowed from completed; it needs a funded order.');
      await shot(page, 'order-refused-simulation');

      // The delivery of the completion: its attempt, the body sent and a signature that verifies.
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByRole('link', { name: 'orderUpdated' }).click();
      await page.getByRole('heading', { name: 'Deliveries' }).waitFor({ timeout: waitBudget });
      const completed = page.locator('details.delivery').filter({ hasText: '"status":"completed"' });
      await eventually(async () => (await completed.count()) === 1 && (await completed.locator('summary .status').textContent()) === 'delivered', waitBudget, 'the delivery of completed');
      await completed.locator('summary').click();
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
      expect(['A', 'SUMMARY', 'BUTTON']).toContain(focused.tag);
      expect(focused.outline).not.toBe('none');

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
