/**
 * What every page of the console reads: the signed-in client, the partner, the live feed and
 * the partner's sandbox clock (app.tsx provides it, the pages of views/ read it; apart from
 * both, so neither imports the other back).
 */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Ramp, Schema } from './api.ts';

export type SandboxEvent = Schema<'SandboxEvent'>;
export type SandboxClock = Schema<'SandboxClock'>;

/** The partner's clock as last read (getSandboxClock), and when: a running one moves on from there. */
export interface ClockReading {
  clock: SandboxClock | undefined;
  /** Real time (Date.now()) of the reading. */
  readAt: number;
  error: unknown;
  /** Reads it again. */
  reload: () => void;
  /** Takes an answer that holds the clock (setSandboxClock, advanceSandboxClock) as the new reading. */
  set: (clock: SandboxClock) => void;
}

/** The partner's sandbox time now: still while frozen, else as far past the reading as real time went. */
export function sandboxNow(reading: ClockReading, realNow = Date.now()): Date | undefined {
  const { clock } = reading;
  if (!clock) return undefined;
  return new Date(Date.parse(clock.now) + (clock.frozen ? 0 : realNow - reading.readAt));
}

export interface Session {
  ramp: Ramp;
  partner: Schema<'Organization'>;
  /** Grows with every event read, and with `refresh()`: pages reload when it changes. */
  version: number;
  /** Every page reloads what it shows (after a change that records no event, as an advance that only expires quotes). */
  refresh: () => void;
  /** The latest events, oldest first (the last 500). */
  events: SandboxEvent[];
  /** When the feed last answered, and whether its last read failed. */
  liveAt: Date | undefined;
  liveError: unknown;
  clock: ClockReading;
}

export const SessionContext = createContext<Session | undefined>(undefined);
export const useSession = () => useContext(SessionContext)!;
