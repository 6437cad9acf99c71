/**
 * A run of some sections (BENCH_ONLY) measured into the last results: its sections' figures
 * replace theirs, every other section is kept as it was measured, and the run is listed in
 * `later` so the report says which figures come from when. A full run takes most of an hour
 * on this machine; a new section, or one lever measured again, should not cost the others'
 * figures nor show them as "not measured".
 */
import type { Results } from './report.ts';

/** The keys of the results each section writes. */
const sectionKeys: Record<string, (keyof Results)[]> = {
  throughput: ['throughput', 'openLoop', 'profiles'],
  scaling: ['scaling', 'seeding'],
  webhooks: ['webhooks'],
  isolation: ['isolation'],
  flows: ['flows'],
  designer: ['designerLoop'],
};

export function mergeResults(previous: Results, current: Results, sections: ReadonlySet<string>): Results {
  const merged: Results = { ...previous, notes: [...previous.notes, ...current.notes] };
  delete merged.targets;
  for (const section of sections) {
    for (const key of sectionKeys[section] ?? []) (merged as unknown as Record<string, unknown>)[key] = current[key];
  }
  // footprint and generate share one object: each keeps the other's figures.
  const { generateSeconds, generateUpToDate, ...starts } = current.footprint ?? {};
  const before = previous.footprint ?? {};
  if (sections.has('footprint')) merged.footprint = { ...starts, generateSeconds: before.generateSeconds, generateUpToDate: before.generateUpToDate };
  if (sections.has('generate')) merged.footprint = { ...merged.footprint, generateSeconds, generateUpToDate };
  // An earlier run's sections measured again are this run's now.
  const earlier = (previous.later ?? []).map((l) => ({ ...l, sections: l.sections.filter((x) => !sections.has(x)) })).filter((l) => l.sections.length > 0);
  merged.later = [...earlier, { sections: [...sections], startedAt: current.startedAt, loadBefore: current.machine.loadBefore, loadAfter: current.machine.loadAfter }];
  return merged;
}
