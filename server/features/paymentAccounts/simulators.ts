/** The sandbox's stand-in for the rail (`simulatePaymentAccount`). */
import type { components } from '../../../generated/types/ramp.ts';
import { Problem, validationError } from '../../shared/problems.ts';
import type { Services } from '../../services.ts';
import type { OrganizationRow } from '../organizations/repository.ts';
import { presentPaymentAccount } from './presenters.ts';
import { directions, moveDirections, type Rails } from './machine.ts';
import { changePaymentAccount, verificationDelayMs } from './useCases.ts';

type Schemas = components['schemas'];

export type SimulatePaymentAccountRequest = Schemas['SimulatePaymentAccountRequest'];

/** The sandbox's stand-in for the rail: enable, disable, or set one direction. */
export async function simulatePaymentAccount(services: Services, organization: OrganizationRow, id: string, request: SimulatePaymentAccountRequest) {
  const railFields = (['rail', 'direction', 'status'] as const).filter((f) => request[f] !== undefined);
  if (request.action === 'setRailStatus') {
    const missing = (['rail', 'direction', 'status'] as const).filter((f) => request[f] === undefined);
    if (missing.length > 0) throw validationError(missing.map((f) => ({ pointer: `/${f}`, detail: 'is required for setRailStatus' })));
  } else if (railFields.length > 0) {
    throw validationError(railFields.map((f) => ({ pointer: `/${f}`, detail: 'is allowed only with setRailStatus' })));
  }
  const after = await changePaymentAccount(services, organization.id, id, (row, now) => {
    const rails = JSON.parse(row.rails) as Rails;
    const disabled = row.status === 'disabled';
    if (request.action === 'disable') return { rails: moveDirections(rails, 'disable'), disabled: true, verifyAt: null };
    if (request.action === 'enable') {
      // Enabling sends the account through the rail's verification again.
      if (!disabled) return undefined;
      return { rails: moveDirections(rails, 'enable'), disabled: false, verifyAt: new Date(now.getTime() + verificationDelayMs).toISOString() };
    }
    const rail = request.rail!;
    const state = rails[rail];
    if (!state) throw new Problem('conflict', `Payment account ${id} is not registered on the ${rail} rail.`);
    const next: Rails = { ...rails, [rail]: { ...state, [request.direction!]: request.status! } };
    const stillPending = Object.values(next).some((r) => directions.some((d) => r?.[d] === 'pending'));
    return { rails: next, disabled, verifyAt: stillPending ? row.verify_at : null };
  });
  return presentPaymentAccount(after!);
}
