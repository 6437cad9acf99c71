/**
 * Every migration, run in the order of their names. Add a file (numbered after the last)
 * and list it here; never edit one that has shipped.
 */
import type { Migration } from 'kysely';
import * as m001 from './001-organizations-and-keys.ts';
import * as m002 from './002-api-key-ids.ts';
import * as m003 from './003-events.ts';
import * as m005 from './005-webhooks.ts';
import * as m010 from './010-money-v2.ts';
import * as m020 from './020-verification.ts';
import * as m030 from './030-money-v1.ts';
import * as m050 from './050-auth.ts';
import * as m090 from './090-rate-limits.ts';
import * as m100 from './100-list-positions.ts';
import * as m110 from './110-canonical-event-payloads.ts';
import * as m120 from './120-session-frame-ancestor.ts';
import * as m130 from './130-event-feed.ts';
import * as m140 from './140-sandbox-clocks.ts';
import * as m150 from './150-quote-and-swap-lists.ts';
import * as m160 from './160-stored-order-bodies.ts';
import * as m170 from './170-order-write-indexes.ts';
import * as m180 from './180-pending-deliveries-by-event.ts';
import * as m190 from './190-request-log.ts';
import * as m200 from './200-sandbox-partners.ts';
import * as m210 from './210-deliveries-of-an-event.ts';

export const migrations: Record<string, Migration> = {
  '001-organizations-and-keys': m001,
  '002-api-key-ids': m002,
  '003-events': m003,
  '005-webhooks': m005,
  '010-money-v2': m010,
  '020-verification': m020,
  '030-money-v1': m030,
  '050-auth': m050,
  '090-rate-limits': m090,
  '100-list-positions': m100,
  '110-canonical-event-payloads': m110,
  '120-session-frame-ancestor': m120,
  '130-event-feed': m130,
  '140-sandbox-clocks': m140,
  '150-quote-and-swap-lists': m150,
  '160-stored-order-bodies': m160,
  '170-order-write-indexes': m170,
  '180-pending-deliveries-by-event': m180,
  '190-request-log': m190,
  '200-sandbox-partners': m200,
  '210-deliveries-of-an-event': m210,
};
