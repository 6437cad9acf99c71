import type { Handler } from '../types.ts';
import { readiness } from '../../features/health/useCases.ts';

export const getHealth: Handler<'getHealth'> = async ({ services }) => ({ status: 200, body: await readiness(services) });
