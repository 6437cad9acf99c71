/** Isolated sandbox partners (features/sandboxPartners/useCases.ts); 403 in production, as every simulator. */
import { makeSandboxPartner, deleteSandboxPartner as remove } from '../../features/sandboxPartners/useCases.ts';
import { assertSandbox } from '../../shared/environment.ts';
import type { Handler } from '../types.ts';

export const createSandboxPartner: Handler<'createSandboxPartner'> = async ({ body, caller, services }) => {
  assertSandbox(services.config);
  return { status: 201, body: await makeSandboxPartner(services, caller, body ?? {}) };
};

export const deleteSandboxPartner: Handler<'deleteSandboxPartner'> = async ({ params, caller, services }) => {
  assertSandbox(services.config);
  await remove(services, caller, params.partnerId);
  return { status: 204, body: undefined };
};
