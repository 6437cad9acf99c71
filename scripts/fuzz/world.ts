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
import { newContext, type ExampleRequest, type WorldOptions } from './world/context.ts';
import { organizations, verification } from './world/organizations.ts';
import { apiKeys, signIn } from './world/signIn.ts';
import { v1Accounts, v1Orders, v1Swaps } from './world/v1Money.ts';
import { ordersOf, v2Accounts, v2Orders } from './world/v2Money.ts';
import { deliveredEvents, webhooks } from './world/webhooks.ts';

export type { ExampleRequest, WorldOptions } from './world/context.ts';

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

/**
 * The world, section by section (each in world/), in this order: the requests of the world
 * are sent in the order they are made here, and each section's comments say what depends on it.
 */
export async function buildWorld(options: WorldOptions): Promise<World> {
  const ctx = newContext(options);
  const { P, d, examples, request } = ctx;
  await webhooks(ctx);
  const { B, C } = await organizations(ctx);
  await verification(ctx, B, C);
  const ownKeyId = await apiKeys(ctx);
  const session = await signIn(ctx);
  const v2 = await v2Accounts(ctx, C);
  await v2Orders(ctx, v2);
  const v1 = await v1Accounts(ctx, C);
  await v1Orders(ctx, v1.money);
  await v1Swaps(ctx, v1.money, B);
  await deliveredEvents(ctx);

  const counts = Object.fromEntries(Object.entries(d).map(([name, values]) => [name, values.length]));
  const env = {
    RAMP_FUZZ_APP_SESSION: session,
    RAMP_FUZZ_KEY_ORGANIZATION: P,
    RAMP_FUZZ_OWN_KEY_ID: ownKeyId,
    RAMP_FUZZ_MONEY_ORGANIZATION: C,
    RAMP_FUZZ_V1_WALLET: v1.money.solana.id as string,
    RAMP_FUZZ_V1_SIGNER_PUBLIC_KEY: v1.v1SignerPublicKey,
  };
  // Last, so it is as fresh as can be: a quote not yet ordered is ordered (201) while firm,
  // 5 minutes; the one above, first in the list, answers its order (200) after that too.
  request('createOrder', { path: { organizationId: C }, body: { quoteId: await ordersOf(ctx, v2).quote('onramp') } });
  return { dictionaries: d, examples, env, counts };
}
