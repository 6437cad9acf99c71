/**
 * What the peer servers answer: for each route of a scenario, the exact status, content
 * type and bytes our server answered, captured by the bench before it starts them.
 */
import { readFileSync } from 'node:fs';

export interface Fixture {
  method: 'GET' | 'POST';
  /** Contract path, `{name}` for a parameter. */
  path: string;
  status: number;
  contentType: string;
  body: string;
}

export function readFixtures(): (Fixture & { bytes: Buffer; pattern: RegExp; expressPath: string })[] {
  const file = process.env.BENCH_FIXTURES;
  if (!file) throw new Error('BENCH_FIXTURES names the fixtures file');
  return (JSON.parse(readFileSync(file, 'utf8')) as Fixture[]).map((f) => ({
    ...f,
    bytes: Buffer.from(f.body),
    pattern: new RegExp(`^${f.path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    expressPath: f.path.replace(/\{([^}]+)\}/g, ':$1'),
  }));
}

export const port = () => Number(process.env.PORT ?? 0);
