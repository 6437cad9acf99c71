/** The partner's sandbox clock (features/clock/useCases.ts); 403 in production, as every simulator. */
import { assertSandbox } from '../../shared/environment.ts';
import * as clock from '../../features/clock/useCases.ts';
import type { Handler } from '../types.ts';

export const getSandboxClock: Handler<'getSandboxClock'> = async ({ caller, services }) => {
  assertSandbox(services.config);
  return { status: 200, body: await clock.getSandboxClock(services, caller) };
};

export const setSandboxClock: Handler<'setSandboxClock'> = async ({ body, caller, services }) => {
  assertSandbox(services.config);
  return { status: 200, body: await clock.setSandboxClock(services, caller, body.frozen) };
};

export const advanceSandboxClock: Handler<'advanceSandboxClock'> = async ({ body, caller, services }) => {
  assertSandbox(services.config);
  return { status: 200, body: await clock.advanceSandboxClock(services, caller, body) };
};
