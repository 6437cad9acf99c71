/** Quotes (features/quotes/). */
import { v2Page } from '../../shared/pagination.ts';
import { createQuote as quote, listQuotes as list } from '../../features/quotes/useCases.ts';
import { actFor } from '../../features/organizations/scope.ts';
import type { Handler } from '../types.ts';

export const createQuote: Handler<'createQuote'> = async ({ params, body, caller, services }) => {
  const organization = await actFor(services, caller, params.organizationId);
  return { status: 201, body: await quote(services, organization, body) };
};

export const listQuotes: Handler<'listQuotes'> = async ({ params, query, caller, services }) => {
  const organization = await actFor(services, caller, params.organizationId);
  return { status: 200, body: await list(services, organization, v2Page(query)) };
};
