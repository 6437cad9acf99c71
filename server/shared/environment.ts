/** Rules that depend on the environment the server runs as (RAMP_ENV). */
import type { Config } from '../config.ts';
import { Problem } from './problems.ts';

/** Sandbox simulators are refused in production (the Sandbox sections of v1.yaml and v2.yaml: 403 `forbidden`). */
export function assertSandbox(config: Pick<Config, 'env'>): void {
  if (config.env === 'production') throw new Problem('forbidden', 'Sandbox simulation is not available in production');
}
