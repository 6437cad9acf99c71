/**
 * Organization set-up for HTTP tests: children made through the API, and the few states
 * that belong to other flows (KYB approval, an unrelated partner) written to storage.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { issueApiKey } from '../../server/features/apiKeys/useCases.ts';
import { newSalt } from '../../server/features/apiKeys/rules.ts';
import { organizationsRepository } from '../../server/features/organizations/repository.ts';
import type { TestServer } from './server.ts';

export interface Child {
  id: string;
  /** A key of the child, when it has one. */
  key?: string;
}

/** A child of the key's organization, made with POST /ramp/organization. */
export async function createChild(
  server: TestServer,
  options: { type?: 'business' | 'personal'; displayName?: string; key?: string; organizationId?: string } = {},
): Promise<Child> {
  const response = await server.call('POST', '/ramp/organization', {
    key: options.key,
    body: { displayName: options.displayName ?? `Customer ${randomUUID().slice(0, 8)}`, type: options.type ?? 'personal', ...(options.organizationId ? { organizationId: options.organizationId } : {}) },
  });
  expect(response.status, response.text_).toBe(201);
  return { id: response.json_.organizationId };
}

/** KYB approval belongs to the KYB flow (its own helper and tests); here it is set directly. */
export async function approveKyb(server: TestServer, organizationId: string) {
  const now = new Date().toISOString();
  await organizationsRepository(server.services.storage.db).update(organizationId, { kyb_status: 'approved', kyb_approved_at: now, updated_at: now });
}

/**
 * A business child with KYB approved and a key of its own. The partner's key cannot create
 * it (POST …/api_key is for the key's own organization); the child gets it as its own
 * organization, outside the partner's key, so it is issued here by the domain directly.
 */
export async function keyedBusinessChild(server: TestServer): Promise<Required<Child>> {
  const child = await createChild(server, { type: 'business' });
  await approveKyb(server, child.id);
  const { key } = await issueApiKey(server.services.storage, server.services.config, child.id, server.services.clock.now());
  return { id: child.id, key };
}

/** An organization of another partner (not reachable by the test partner's key). */
export async function stranger(server: TestServer, parentId: string | null = null): Promise<string> {
  const id = randomUUID();
  await organizationsRepository(server.services.storage.db).insert({
    id, parentId, type: 'business', displayName: 'Another partner', keySalt: newSalt(), kybStatus: 'approved', now: new Date().toISOString(),
  });
  return id;
}

/** Row counts of every table: what a refused request must leave unchanged. */
export async function rowCounts(server: TestServer): Promise<Record<string, number>> {
  const db = server.services.storage.db;
  const tables = (await db.introspection.getTables()).map((t) => t.name).filter((name) => !name.startsWith('kysely_'));
  const counts: Record<string, number> = {};
  for (const table of tables.sort()) {
    const { n } = await db.selectFrom(table as 'organizations').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    counts[table] = Number(n);
  }
  return counts;
}
