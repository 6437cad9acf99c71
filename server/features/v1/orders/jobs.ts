/** The v1 steps the service takes on its own: token delivery of funded onramps, the end of offramp reversal windows. */
import type { Job } from '../../../services.ts';
import { settleDueV1Orders } from './useCases.ts';

export const v1SettlementJob: Job = {
  name: 'v1-order-settlement',
  async run(services) {
    await settleDueV1Orders(services);
  },
};
