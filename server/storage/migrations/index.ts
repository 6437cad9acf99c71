/**
 * Every migration, run in the order of their names. Add a file (numbered after the last)
 * and list it here; never edit one that has shipped.
 */
import type { Migration } from 'kysely';
import * as m001 from './001-organizations-and-keys.ts';
import * as m003 from './003-events.ts';

export const migrations: Record<string, Migration> = {
  '001-organizations-and-keys': m001,
  '003-events': m003,
};
