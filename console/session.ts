/**
 * What every page of the console reads: the signed-in client, the partner and the live feed
 * (app.tsx provides it, views.tsx reads it; apart from both, so neither imports the other back).
 */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Ramp, Schema } from './api.ts';

export type SandboxEvent = Schema<'SandboxEvent'>;

export interface Session {
  ramp: Ramp;
  partner: Schema<'Organization'>;
  /** Grows with every event read: pages reload when it changes. */
  version: number;
  /** The latest events, oldest first (the last 500). */
  events: SandboxEvent[];
  /** When the feed last answered, and whether its last read failed. */
  liveAt: Date | undefined;
  liveError: unknown;
}

export const SessionContext = createContext<Session | undefined>(undefined);
export const useSession = () => useContext(SessionContext)!;
