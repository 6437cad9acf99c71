/**
 * The console's shell: signing in with a sandbox key, the live feed, the navigation.
 *
 * Live updates poll `GET /sandbox/events?after=<cursor>` (listSandboxEvents) every second
 * rather than holding a server-sent stream open: a plain request passes every proxy and
 * load balancer unchanged, survives a restart of the sandbox, and its cursor never skips an
 * event. Each new event bumps `live.version`, and every page reloads what it shows.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ask, connect, Failure, storedKey, storeKey, type Ramp, type Schema } from './api.ts';
import { SessionContext, type ClockReading, type SandboxClock, type SandboxEvent, type Session } from './session.ts';
import { ErrorText, Field } from './ui.tsx';
import { Deliveries, EventFeed, OrderPage, Organization, Organizations, V1OrderPage, Webhooks } from './views.tsx';

const pollMs = 1000;

function useLiveFeed(ramp: Ramp | undefined) {
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
function useSandboxClock(ramp: Ramp | undefined, version: number): ClockReading {
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
function useRoute(): string[] {
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

export function App() {
  const [signedIn, setSignedIn] = useState<{ ramp: Ramp; partner: Schema<'Organization'> } | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [checking, setChecking] = useState(false);
  const live = useLiveFeed(signedIn?.ramp);
  // Both only grow, so their sum changes whenever either does.
  const [refreshed, setRefreshed] = useState(0);
  const version = live.version + refreshed;
  const refresh = useCallback(() => setRefreshed((r) => r + 1), []);
  const clock = useSandboxClock(signedIn?.ramp, version);
  const route = useRoute();

  const signIn = async (key: string) => {
    setChecking(true);
    setError(undefined);
    try {
      let ramp: Ramp;
      try {
        ramp = connect(key);
      } catch (e) {
        throw new Failure('This is not an API key', [(e as Error).message]);
      }
      // The key names its organization (`api_sand:{key_id}:{org_id}`); the API checks the whole key.
      await ask(ramp.GET('/organizations', { params: { query: { pageSize: 1 } } }));
      const partnerId = key.split(':')[2] ?? '';
      const partner = await ask(ramp.GET('/organization/{organizationId}', { params: { path: { organizationId: partnerId } } }));
      storeKey(key);
      setSignedIn({ ramp, partner });
    } catch (e) {
      storeKey(null);
      setError(e);
    } finally {
      setChecking(false);
    }
  };

  useEffect(() => {
    const key = storedKey();
    if (key) void signIn(key);
  }, []);

  if (!signedIn) {
    return (
      <main class="signin">
        <h1 tabIndex={-1}>Ramp sandbox console</h1>
        <p>Paste the sandbox API key that <code>npm start</code> printed (<code>api_sand:…</code>). It stays in this browser tab only and is sent to this sandbox only.</p>
        <form
          class="form"
          onSubmit={(event) => {
            event.preventDefault();
            const key = new FormData(event.currentTarget as HTMLFormElement).get('apiKey');
            if (typeof key === 'string' && key.trim()) void signIn(key.trim());
          }}
        >
          <Field label="Sandbox API key" name="apiKey" type="password" required />
          <button type="submit" class="primary" disabled={checking}>
            {checking ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
        {error !== undefined && <ErrorText error={error} />}
      </main>
    );
  }

  const session: Session = { ...signedIn, version, refresh, events: live.events, liveAt: live.liveAt, liveError: live.liveError, clock };
  const [page, ...rest] = route;
  let content;
  if (page === 'organization' && rest[0] && rest[1] === 'order' && rest[2]) content = <OrderPage organizationId={rest[0]} orderId={rest[2]} />;
  else if (page === 'organization' && rest[0]) content = <Organization organizationId={rest[0]} />;
  else if (page === 'v1order' && rest[0]) content = <V1OrderPage orderId={rest[0]} />;
  else if (page === 'webhooks' && rest[0]) content = <Deliveries subscriptionId={rest[0]} surface={rest[1] === 'v1' ? 'v1' : 'v2'} />;
  else if (page === 'webhooks') content = <Webhooks />;
  else if (page === 'events') content = <EventFeed />;
  else content = <Organizations />;

  return (
    <SessionContext.Provider value={session}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <strong class="brand">Ramp sandbox</strong>
        <nav aria-label="Console">
          <a href="#/" aria-current={!page || page === 'organization' ? 'page' : undefined}>
            Organizations
          </a>
          <a href="#/webhooks" aria-current={page === 'webhooks' ? 'page' : undefined}>
            Webhooks
          </a>
          <a href="#/events" aria-current={page === 'events' ? 'page' : undefined}>
            Events
          </a>
        </nav>
        <span class="live" role="status" id="live">
          {session.liveError ? 'Live updates paused: the sandbox did not answer' : session.liveAt ? `Live · ${session.liveAt.toLocaleTimeString()}` : 'Connecting…'}
        </span>
        <span class="who" id="partner-name">
          {signedIn.partner.displayName}
        </span>
        <button
          type="button"
          class="plain"
          onClick={() => {
            storeKey(null);
            setSignedIn(undefined);
            location.hash = '';
          }}
        >
          Sign out
        </button>
      </header>
      <main id="main">{content}</main>
    </SessionContext.Provider>
  );
}
