/**
 * The live delivery every smoke program decodes (npm run test:clients): a loopback receiver in
 * Node, subscribed to the sandbox's v2 `orderUpdated` events, receives the delivery an order's
 * cancellation sends; its signature is checked here with the partner SDK (client/webhooks.ts)
 * and its raw body written to a file. Each language's program then decodes that file with its
 * generated event model (OrderUpdatedEvent) and prints `delivery <event> <order id> <status>`,
 * which the harness compares with what it caused: the programs only decode, the SDK verifies.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { createRampClient, RampError, verifyWebhook } from '../../client/index.ts';

export interface Delivery {
  /** The delivered body, byte for byte. */
  file: string;
  orderId: string;
  status: string;
  /** The line each smoke program prints after decoding the file with its generated model. */
  line: string;
}

/**
 * Throws unless a smoke program's output has the delivery's line: the event it decoded must be
 * the order the harness canceled, read through the generated model, not a constant.
 */
export function checkDecoded(printed: string, delivery: Delivery): void {
  if (!printed.split(/\r?\n/).some((line) => line.trim() === delivery.line)) throw new Error(`the flow did not print "${delivery.line}"`);
}

const readBody = (request: IncomingMessage) =>
  new Promise<string>((done, fail) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
    request.on('error', fail);
  });

async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (error !== undefined || data === undefined) throw RampError.from(error, response);
  return data;
}

/** Causes one `orderUpdated` (a customer's order, canceled) and captures its signed delivery into `file`. */
export async function captureDelivery(baseUrl: string, apiKey: string, file: string, timeoutMs = 60_000): Promise<Delivery> {
  const bodies: { body: string; signature: string | string[] | undefined }[] = [];
  let arrived: () => void = () => {};
  const receiver = createServer(async (request, response) => {
    bodies.push({ body: await readBody(request), signature: request.headers['x-signature'] });
    response.writeHead(204).end();
    arrived();
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  try {
    const { port } = receiver.address() as { port: number };
    const ramp = createRampClient({ baseUrl, apiKey });
    const subscription = await ok(ramp.POST('/webhook_subscription', { body: { url: `http://127.0.0.1:${port}/hooks/${randomUUID()}`, eventType: 'orderUpdated' } }));

    // An approved person with a wallet orders USDC for pesos, then cancels: one orderUpdated.
    const customer = await ok(ramp.POST('/ramp/organization', { body: { displayName: 'Delivery Customer', type: 'personal' } }));
    const organization = { params: { path: { organizationId: customer.organizationId } } };
    await ok(ramp.POST('/sandbox/organization/{organizationId}/kyc', { ...organization, body: { status: 'approved' } }));
    const base58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
    const walletAddress = Array.from({ length: 44 }, () => base58[randomInt(base58.length)]).join('');
    await ok(ramp.POST('/organization/{organizationId}/wallet', { ...organization, body: { custody: 'external', address: walletAddress, blockchain: 'solana' } }));
    const quote = await ok(ramp.POST('/organization/{organizationId}/quote', {
      ...organization,
      body: { type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: '200.00', rail: 'spei', walletAddress },
    }));
    const order = await ok(ramp.POST('/organization/{organizationId}/order', { ...organization, body: { quoteId: quote.quoteId } }));
    const canceled = await ok(ramp.POST('/organization/{organizationId}/order/{id}/cancel', { params: { path: { organizationId: customer.organizationId, id: order.id } } }));

    const deadline = Date.now() + timeoutMs;
    for (;;) {
      for (const received of bodies) {
        const event = await verifyWebhook({ body: received.body, signature: received.signature, secret: subscription.secret });
        if ('order' in event && event.event === 'orderUpdated' && event.order.id === order.id && event.order.status === canceled.status) {
          writeFileSync(file, received.body);
          return { file, orderId: order.id, status: canceled.status, line: `delivery orderUpdated ${order.id} ${canceled.status}` };
        }
      }
      if (Date.now() > deadline) throw new Error(`no orderUpdated delivery for order ${order.id} within ${timeoutMs / 1000} s`);
      await new Promise<void>((done) => {
        arrived = done;
        setTimeout(done, 1000);
      });
    }
  } finally {
    receiver.closeAllConnections();
    receiver.close();
  }
}
