/** A bench run's results with nothing measured, for the report's tests to fill one section of. */
import type { Results } from '../../bench/report.ts';

export const benchResults = (overrides: Partial<Results> = {}): Results => ({
  machine: { cpu: 'test', cores: 2, memoryGb: 4, os: 'linux', node: 'v20', loadBefore: 0.2, loadAfter: 1 },
  startedAt: '2026-01-01T00:00:00.000Z',
  options: { durationS: 5, warmupS: 1, connections: 20, smallOrders: 1000, largeOrders: 1_000_000 },
  throughput: [],
  scaling: [],
  notes: [],
  ...overrides,
});
