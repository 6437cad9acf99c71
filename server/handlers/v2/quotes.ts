/** Quotes (features/quotes/). */
import { createQuote as quote } from '../../features/quotes/useCases.ts';
import { actFor } from '../../features/organizations/scope.ts';
import type { Handler } from '../types.ts';

export const createQuote: Handler<'createQuote'> = async ({ params, body, caller, services }) => {
  const organization = await actFor(services.storage.db, caller, params.organizationId);
  return { status: 201, body: await quote(services, organization, body) };
};
