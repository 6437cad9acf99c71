/**
 * The console's live state: the event feed, the partner's sandbox clock and the page's route.
 *
 * Live updates poll `GET /sandbox/events?after=<cursor>` (listSandboxEvents) every second
 * rather than holding a server-sent stream open: a plain request passes every proxy and
 * load balancer unchanged, survives a restart of the sandbox, and its cursor never skips an
 * event. Each new event bumps `live.version`, and every page reloads what it shows.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ask, type Ramp, type Schema } from './api.ts';
import type { ClockReading, SandboxClock, SandboxEvent } from './session.ts';

const pollMs = 1000;

export function useLiveFeed(ramp: Ramp | undefined) {
  const [state, setState] = useState<{ version: number; events: SandboxEvent[]; liveAt?: Date; liveError?: unknown }>({ version: 0, events: [] });
  const cursor = useRef(0);
  useEffect(() => {
    if (!ramp) return undefined;
    cursor.current = 0;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      try {
        let page: Schema<'SandboxEventPage'>;
        const fresh: SandboxEvent[] = [];
        do {
          page = await ask(ramp.GET('/sandbox/events', { params: { query: { after: cursor.current, pageSize: 100 } } }));
          fresh.push(...page.items);
          cursor.current = page.nextCursor;
        } while (page.items.length === 100 && !stopped);
        if (!stopped) setState((s) => ({ version: fresh.length ? cursor.current : s.version, events: fresh.length ? [...s.events, ...fresh].slice(-500) : s.events, liveAt: new Date(), liveError: undefined }));
      } catch (error) {
        if (!stopped) setState((s) => ({ ...s, liveError: error }));
      }
      if (!stopped) timer = setTimeout(read, pollMs);
    };
    void read();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [ramp]);
  return state;
}

/**
 * The partner's sandbox clock (getSandboxClock), read at sign-in, whenever the feed moves (a
 * change may schedule the next due one) and when a page asks. Between readings a running
 * clock is shown moving on real time from the reading (session.ts sandboxNow).
 */
export function useSandboxClock(ramp: Ramp | undefined, version: number): ClockReading {
  const [state, setState] = useState<{ clock?: SandboxClock; readAt: number; error?: unknown }>({ readAt: 0 });
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (!ramp) return undefined;
    let current = true;
    ask(ramp.GET('/sandbox/clock')).then(
      (clock) => current && setState({ clock, readAt: Date.now() }),
      (error: unknown) => current && setState((s) => ({ ...s, error })),
    );
    return () => {
      current = false;
    };
  }, [ramp, version, round]);
  return {
    clock: state.clock,
    readAt: state.readAt,
    error: state.error,
    reload: useCallback(() => setRound((r) => r + 1), []),
    set: useCallback((clock: SandboxClock) => setState({ clock, readAt: Date.now() }), []),
  };
}

/** `#/organization/…`: the page shown, from the location's hash (links and Back work). */
export function useRoute(): string[] {
  const parse = () => location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const [route, setRoute] = useState(parse);
  useEffect(() => {
    const changed = () => {
      setRoute(parse());
      // The new page's heading takes the focus, so keyboard and screen reader users land on it.
      requestAnimationFrame(() => document.querySelector<HTMLElement>('main h1')?.focus());
    };
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return route;
}

