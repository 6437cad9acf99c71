/** `PUT /jwt_issuer`, `GET /jwt_issuer`: the issuer and keys of the key organization's partner JWTs. */
import { getJwtIssuer as readIssuer, setJwtIssuer as registerIssuer } from '../../features/auth/issuers.ts';
import type { Handler } from '../types.ts';

export const getJwtIssuer: Handler<'getJwtIssuer'> = async ({ caller, services }) => ({
  status: 200,
  body: await readIssuer(services, caller.organization),
});

export const setJwtIssuer: Handler<'setJwtIssuer'> = async ({ body, caller, services }) => ({
  status: 200,
  body: await registerIssuer(services, caller.organization, body),
});
