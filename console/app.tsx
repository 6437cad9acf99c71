/** The console's shell: signing in with a sandbox key, the header with the live feed, the pages by route. */
import { useCallback, useEffect, useState } from 'preact/hooks';
import { ask, connect, Failure, storedKey, storeKey, type Ramp, type Schema } from './api.ts';
import { useLiveFeed, useRoute, useSandboxClock } from './live.ts';
import { SessionContext, type Session } from './session.ts';
import { ErrorText, Field, When } from './ui.tsx';
import { EventFeed, EventPage } from './views/events.tsx';
import { OrderPage } from './views/order.tsx';
import { Organization } from './views/organization.tsx';
import { Organizations } from './views/organizations.tsx';
import { RequestLog } from './views/requests.tsx';
import { V1OrderPage } from './views/v1.tsx';
import { Deliveries, Webhooks } from './views/webhooks.tsx';

type SignedIn = { ramp: Ramp; partner: Schema<'Organization'> };

/** Checks a key as the API does and names its organization (`api_sand:{key_id}:{org_id}`). */
async function signInWith(key: string): Promise<SignedIn> {
  let ramp: Ramp;
  try {
    ramp = connect(key);
  } catch (e) {
    throw new Failure('This is not an API key', [(e as Error).message]);
  }
  await ask(ramp.GET('/organizations', { params: { query: { pageSize: 1 } } }));
  const partnerId = key.split(':')[2] ?? '';
  const partner = await ask(ramp.GET('/organization/{organizationId}', { params: { path: { organizationId: partnerId } } }));
  return { ramp, partner };
}

export function App() {
  const [signedIn, setSignedIn] = useState<SignedIn | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [checking, setChecking] = useState(false);
  const signIn = async (key: string) => {
    setChecking(true);
    setError(undefined);
    try {
      setSignedIn(await signInWith(key));
      storeKey(key);
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
  if (!signedIn) return <SignIn signIn={signIn} checking={checking} error={error} />;
  return (
    <Console
      signedIn={signedIn}
      signOut={() => {
        storeKey(null);
        setSignedIn(undefined);
        location.hash = '';
      }}
    />
  );
}

function SignIn({ signIn, checking, error }: { signIn: (key: string) => void; checking: boolean; error: unknown }) {
  return (
    <main class="signin">
      <h1 tabIndex={-1}>Ramp sandbox console</h1>
      <p>
        Paste the sandbox API key that <code>npm start</code> printed (<code>api_sand:…</code>). It stays in this browser tab only and is sent to this sandbox only.
      </p>
      <form
        class="form"
        onSubmit={(event) => {
          event.preventDefault();
          const key = new FormData(event.currentTarget as HTMLFormElement).get('apiKey');
          if (typeof key === 'string' && key.trim()) signIn(key.trim());
        }}
      >
        <Field label="Sandbox API key" name="apiKey" type="password" required />
        <button type="submit" class="primary" disabled={checking}>
          {checking ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      {error !== undefined && <ErrorText error={error} />}
      <p>
        Every operation the console calls is in the <a href="/docs">API reference</a>.
      </p>
    </main>
  );
}

/** The page a route shows (`#/organization/…`: links and Back work). */
function Page({ route }: { route: string[] }) {
  const [page, ...rest] = route;
  if (page === 'organization' && rest[0] && rest[1] === 'order' && rest[2]) return <OrderPage organizationId={rest[0]} orderId={rest[2]} />;
  if (page === 'organization' && rest[0]) return <Organization organizationId={rest[0]} />;
  if (page === 'v1order' && rest[0]) return <V1OrderPage orderId={rest[0]} />;
  if (page === 'webhooks' && rest[0]) return <Deliveries subscriptionId={rest[0]} surface={rest[1] === 'v1' ? 'v1' : 'v2'} />;
  if (page === 'webhooks') return <Webhooks />;
  if (page === 'event' && rest[0]) return <EventPage eventId={rest[0]} />;
  if (page === 'events') return <EventFeed />;
  if (page === 'requests') return <RequestLog objectId={rest[0] === 'object' ? rest[1] : undefined} />;
  return <Organizations />;
}

const sections: [page: string, label: string, current: (page: string | undefined) => boolean][] = [
  ['#/', 'Organizations', (page) => !page || page === 'organization' || page === 'v1order'],
  ['#/webhooks', 'Webhooks', (page) => page === 'webhooks'],
  ['#/events', 'Events', (page) => page === 'events' || page === 'event'],
  ['#/requests', 'Requests', (page) => page === 'requests'],
];

function Console({ signedIn, signOut }: { signedIn: SignedIn; signOut: () => void }) {
  const live = useLiveFeed(signedIn.ramp);
  // Both only grow, so their sum changes whenever either does.
  const [refreshed, setRefreshed] = useState(0);
  const version = live.version + refreshed;
  const refresh = useCallback(() => setRefreshed((r) => r + 1), []);
  const clock = useSandboxClock(signedIn.ramp, version);
  const route = useRoute();
  const session: Session = { ...signedIn, version, refresh, events: live.events, liveAt: live.liveAt, liveError: live.liveError, clock };
  return (
    <SessionContext.Provider value={session}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <strong class="brand">Ramp sandbox</strong>
        <nav aria-label="Console">
          {sections.map(([href, label, current]) => (
            <a href={href} aria-current={current(route[0]) ? 'page' : undefined}>
              {label}
            </a>
          ))}
          {/* A new tab: the console's session (its key in this tab's storage) stays open. */}
          <a href="/docs" target="_blank" rel="noopener">
            API reference
          </a>
        </nav>
        <span class="live" role="status" id="live">
          {session.liveError ? 'Live updates paused: the sandbox did not answer' : session.liveAt ? <>Live · <When at={session.liveAt.toISOString()} clock="real" /></> : 'Connecting…'}
        </span>
        <span class="who" id="partner-name">
          {signedIn.partner.displayName}
        </span>
        <button type="button" class="plain" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main id="main">
        <Page route={route} />
      </main>
    </SessionContext.Provider>
  );
}
