/** Small building blocks of the console's pages: loading, actions with their errors, statuses. */
import { createContext, type ComponentChildren } from 'preact';
import { useCallback, useContext, useEffect, useRef, useState } from 'preact/hooks';
import { Failure, formatTime } from './api.ts';

/** A failure as text: what went wrong, then each line of the API's detail. */
export function ErrorText({ error }: { error: unknown }) {
  const failure = error instanceof Failure ? error : new Failure('Something went wrong', [String((error as Error)?.message ?? error)]);
  return (
    <div class="error" role="alert">
      <strong>{failure.title}</strong>
      {failure.lines.map((line) => (
        <div>{line}</div>
      ))}
    </div>
  );
}

/**
 * Data loaded by `load`, loaded again whenever a dependency changes (the live feed's version
 * among them). The last data stays on screen while the next load runs, so a live page does
 * not flicker.
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): { data: T | undefined; error: unknown; reload: () => void } {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    load().then(
      (value) => {
        if (!current) return;
        setData(value);
        setError(undefined);
      },
      (e: unknown) => current && setError(e),
    );
    return () => {
      current = false;
    };
    // The caller names what the load depends on (`deps`): `load` itself is a new function at every render.
  }, [...deps, round]);
  return { data, error, reload: useCallback(() => setRound((r) => r + 1), []) };
}

/** Calls `load` again every `ms` while the component is shown (deliveries: attempts are not events). */
export function useTicker(ms: number): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((t) => t + 1), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return tick;
}

/** Where the Actions of a ButtonRow report their problem: under the whole row, not inside it. */
const RowProblem = createContext<((error: unknown) => void) | undefined>(undefined);

/** A row of Actions whose last problem shows under the row, so it never pushes the buttons aside. */
export function ButtonRow(props: { children: ComponentChildren; id?: string; class?: string }) {
  const [error, setError] = useState<unknown>(undefined);
  return (
    <RowProblem.Provider value={setError}>
      <div class={`buttons ${props.class ?? ''}`} id={props.id}>
        {props.children}
      </div>
      {error !== undefined && <ErrorText error={error} />}
    </RowProblem.Provider>
  );
}

/** A button that runs an API call: busy while it runs, the problem the API answered under it (or under its row). */
export function Action(props: { label: string; run: () => Promise<unknown>; done?: (value: unknown) => void; kind?: 'primary' | 'danger' | 'plain'; name?: string; title?: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const row = useContext(RowProblem);
  const report = row ?? setError;
  const mounted = useRef(true);
  useEffect(() => () => void (mounted.current = false), []);
  const click = async () => {
    setBusy(true);
    report(undefined);
    try {
      const value = await props.run();
      props.done?.(value);
    } catch (e) {
      if (mounted.current) report(e);
    } finally {
      if (mounted.current) setBusy(false);
    }
  };
  return (
    <span class="action">
      <button type="button" class={props.kind ?? 'plain'} data-action={props.name ?? props.label} title={props.title} disabled={busy} onClick={click}>
        {busy ? `${props.label}…` : props.label}
      </button>
      {!row && error !== undefined && <ErrorText error={error} />}
    </span>
  );
}

/** Copies a value a partner pastes into code or a terminal (ids, CLABEs, key prefixes), and says it did. */
export function Copy({ value, what }: { value: string; what: string }) {
  const [copied, setCopied] = useState<boolean | undefined>(undefined);
  const copy = () =>
    navigator.clipboard.writeText(value).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  return (
    <>
      <button type="button" class="copy" aria-label={`Copy ${what}`} data-copy={value} onClick={copy}>
        Copy
      </button>
      <span class="copied" role="status">
        {copied === true ? 'Copied' : copied === false ? 'Copy it by hand: the browser refused' : ''}
      </span>
    </>
  );
}

/** A value with its copy button. */
export const Copyable = ({ value, what, wrap }: { value: string; what: string; wrap?: boolean }) => (
  <span class="copyable">
    <code class={wrap ? 'wrap' : undefined}>{value}</code> <Copy value={value} what={what} />
  </span>
);

/**
 * A time with the clock it is on: `sandbox` (the partner's sandbox clock: every object and
 * event body) or `real` (the computer's: the live feed, webhook attempts, the request log).
 * The two drift apart as soon as the sandbox clock is frozen or advanced.
 */
export function When({ at, clock }: { at: string | null | undefined; clock: 'sandbox' | 'real' }) {
  if (!at) return <span class="muted">—</span>;
  return (
    <span class="when" data-clock={clock}>
      <time dateTime={at}>{formatTime(at)}</time> <small class={`clock clock-${clock}`}>{clock === 'sandbox' ? 'sandbox time' : 'real time'}</small>
    </span>
  );
}

/** Where the page sits: each level a link, the page itself last, by name. */
export function Crumbs({ trail, here }: { trail: [href: string, label: string][]; here: string }) {
  return (
    <nav aria-label="Breadcrumb" class="crumbs">
      <ol>
        {trail.map(([href, label]) => (
          <li>
            <a href={href}>{label}</a>
          </li>
        ))}
        <li aria-current="page">{here}</li>
      </ol>
    </nav>
  );
}

/** A form whose submit runs an API call, with the API's problem shown under it. */
export function ActionForm(props: { label: string; submit: (data: FormData) => Promise<unknown>; done?: (value: unknown) => void; children: ComponentChildren; id?: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const onSubmit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    setBusy(true);
    setError(undefined);
    try {
      const value = await props.submit(new FormData(form));
      props.done?.(value);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="form" onSubmit={onSubmit} id={props.id}>
      {props.children}
      <button type="submit" class="primary" disabled={busy}>
        {busy ? `${props.label}…` : props.label}
      </button>
      {error !== undefined && <ErrorText error={error} />}
    </form>
  );
}

/** A choice's value and, when it differs, what it shows. */
export type Choice = string | [value: string, label: string];

export function Field(props: { label: string; name: string; value?: string; type?: string; required?: boolean; hint?: string; options?: Choice[]; onChange?: (value: string) => void }) {
  const id = `field-${props.name}-${useRef(Math.random().toString(36).slice(2)).current}`;
  const hint = props.hint ? `${id}-hint` : undefined;
  const changed = (event: Event) => props.onChange?.((event.currentTarget as HTMLInputElement | HTMLSelectElement).value);
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      {props.options ? (
        <select id={id} name={props.name} aria-describedby={hint} onChange={changed}>
          {props.options.map((o) => {
            const [value, label] = typeof o === 'string' ? [o, o || '—'] : o;
            return (
              <option value={value} selected={value === props.value}>
                {label}
              </option>
            );
          })}
        </select>
      ) : (
        <input id={id} name={props.name} type={props.type ?? 'text'} defaultValue={props.value} required={props.required} autocomplete="off" aria-describedby={hint} onInput={changed} />
      )}
      {props.hint && <small id={hint}>{props.hint}</small>}
    </div>
  );
}

export function Status({ value }: { value: string | null | undefined }) {
  return <span class={`status status-${value ?? 'none'}`}>{value ?? '—'}</span>;
}

export function Section(props: { title: string; id?: string; children: ComponentChildren; actions?: ComponentChildren }) {
  return (
    <section class="card" aria-labelledby={props.id ? `${props.id}-title` : undefined} id={props.id}>
      <div class="card-head">
        <h2 id={props.id ? `${props.id}-title` : undefined}>{props.title}</h2>
        {props.actions}
      </div>
      {props.children}
    </section>
  );
}

export const Empty = ({ children }: { children: ComponentChildren }) => <p class="empty">{children}</p>;
export const Loading = () => <p class="empty" aria-live="polite">Loading…</p>;

/** What `Listing` reads of a list's `useLoad`: the page (any list operation's page has `items`) and the load's problem. */
export type Loaded<T> = { data: { items: T[] } | undefined; error: unknown };

/**
 * A list section, the one shape of every list the console shows: a card with its heading,
 * what comes before the rows (the form that adds one), the load's problem, then the rows as a
 * table, or what an empty list says. The last rows stay on screen under a failed reload
 * (useLoad keeps them), so a live page does not lose what it showed.
 */
export function Listing<T>(props: {
  title: string;
  id: string;
  /** The list's load (useLoad of a list operation): its page's items are the rows, `undefined` until it first answers. */
  load: Loaded<T>;
  /** The header cell of each column. */
  columns: string[];
  /** One row: a `<tr>` with a cell per column (and the data attributes that name its object). */
  row: (item: T) => ComponentChildren;
  /** What an empty list says. */
  empty: ComponentChildren;
  /** Say "Loading…" until the first load answers (a page's own list), rather than nothing (a section among many). */
  loading?: boolean;
  /** What the table holds, for screen readers. */
  caption?: string;
  children?: ComponentChildren;
}) {
  const items = props.load.data?.items;
  const error = props.load.error;
  return (
    <Section title={props.title} id={props.id}>
      {props.children}
      {error !== undefined && <ErrorText error={error} />}
      {items === undefined ? (
        props.loading && error === undefined && <Loading />
      ) : items.length === 0 ? (
        <Empty>{props.empty}</Empty>
      ) : (
        <table>
          {props.caption && <caption class="sr-only">{props.caption}</caption>}
          <thead>
            <tr>
              {props.columns.map((column) => (
                <th scope="col">{column}</th>
              ))}
            </tr>
          </thead>
          <tbody>{items.map(props.row)}</tbody>
        </table>
      )}
    </Section>
  );
}

export const text = (data: FormData, name: string) => {
  const value = data.get(name);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
};
