/** ISO 3166-1 countries from a maintained data package, and the restricted-country list. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import countries from 'i18n-iso-countries';
import english from 'i18n-iso-countries/langs/en.json' with { type: 'json' };

countries.registerLocale(english);

export interface Country {
  alpha2: string;
  alpha3: string;
  name: string;
}

export interface RestrictedCountry extends Country {
  kyc_blocked: boolean;
  kyb_blocked: boolean;
}

let all: Country[] | undefined;

export function countryList(): Country[] {
  all ??= Object.keys(countries.getAlpha2Codes())
    .map((alpha2) => ({ alpha2, alpha3: countries.alpha2ToAlpha3(alpha2)!, name: countries.getName(alpha2, 'en', { select: 'official' })! }))
    .sort((a, b) => a.alpha2.localeCompare(b.alpha2));
  return all;
}

export const isCountryCode = (alpha2: string) => countries.isValid(alpha2) && alpha2.length === 2 && alpha2 === alpha2.toUpperCase();

const restrictedFile = join(import.meta.dirname, '..', 'data', 'restricted-countries.json');
let restricted: RestrictedCountry[] | undefined;

export function restrictedCountries(): RestrictedCountry[] {
  if (!restricted) {
    const file = JSON.parse(readFileSync(restrictedFile, 'utf8')) as { countries: { alpha2: string; kyc: boolean; kyb: boolean }[] };
    const byCode = new Map(countryList().map((c) => [c.alpha2, c]));
    restricted = file.countries
      .map(({ alpha2, kyc, kyb }) => {
        const country = byCode.get(alpha2);
        if (!country) throw new Error(`restricted-countries.json: ${alpha2} is not an ISO 3166-1 code`);
        return { ...country, kyc_blocked: kyc, kyb_blocked: kyb };
      })
      .sort((a, b) => a.alpha2.localeCompare(b.alpha2));
  }
  return restricted;
}
