/** Every migration, in order. Add a file and list it here; never edit one that has shipped. */
import type { Migration } from 'kysely';
import * as m001 from './001-organizations-and-keys.ts';

export const migrations: Record<string, Migration> = {
  '001-organizations-and-keys': m001,
};
