/** The public lookups (lookup.yaml). */
import { countryList, restrictedCountries } from '../../shared/countries.ts';
import { Problem } from '../../shared/problems.ts';
import type { Services } from '../../services.ts';
import type { Handler } from '../types.ts';

/** Before the first prices, the tokens and rates lookups ask for a retry in a second (503). */
const pricesNotYet = () => new Problem('service-unavailable', 'Prices are not available yet; retry shortly.', {}, { 'Retry-After': '1' });
/** The deprecated bond lookups answer 500 there instead (as the service publishes), with no wait to tell. */
const bondPricesNotYet = () => new Problem('internal-error', 'Bond prices are not available yet; retry with exponential backoff.');

function pricesNow(services: Services, refusal: () => Problem = pricesNotYet) {
  // Prices are global: real time, never a partner's sandbox clock (its warm-up included).
  const now = services.realClock.now();
  if (!services.prices.available(now)) throw refusal();
  return now;
}

export const listTokenCosts: Handler<'listTokenCosts'> = ({ services, query }) => ({
  status: 200,
  body: services.prices.tokenCosts(pricesNow(services), query.max_age),
});

export const getTokenCost: Handler<'getTokenCost'> = ({ services, params, query }) => {
  const cost = services.prices.tokenCost(params.identifier, pricesNow(services), query.max_age);
  if (!cost) throw new Problem('not-found', `Unknown token ${params.identifier}.`);
  return { status: 200, body: cost };
};

export const listBondCosts: Handler<'listBondCosts'> = ({ services, query }) => ({
  status: 200,
  body: services.prices.bondCosts(pricesNow(services, bondPricesNotYet), query.max_age),
});

export const getBondCost: Handler<'getBondCost'> = ({ services, params, query }) => {
  const cost = services.prices.bondCost(params.identifier, pricesNow(services, bondPricesNotYet), query.max_age);
  if (!cost) throw new Problem('not-found', `Unknown bond ${params.identifier}.`);
  return { status: 200, body: cost };
};

export const getExchangeRates: Handler<'getExchangeRates'> = ({ services, query }) => ({
  status: 200,
  body: services.prices.exchangeRates(pricesNow(services), query.max_age),
});

export const listCountryCodes: Handler<'listCountryCodes'> = () => ({ status: 200, body: countryList() });

export const listRestrictedCountries: Handler<'listRestrictedCountries'> = () => ({
  status: 200,
  body: { countries: restrictedCountries() },
});
