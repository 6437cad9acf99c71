/** Small building blocks of the console's pages: loading, actions with their errors, statuses. */
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { Failure } from './api.ts';

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
    // eslint-disable-next-line react-hooks/exhaustive-deps
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

/** A button that runs an API call: busy while it runs, the problem the API answered under it. */
export function Action(props: { label: string; run: () => Promise<unknown>; done?: (value: unknown) => void; kind?: 'primary' | 'danger' | 'plain'; name?: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const mounted = useRef(true);
  useEffect(() => () => void (mounted.current = false), []);
  const click = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const value = await props.run();
      props.done?.(value);
    } catch (e) {
      if (mounted.current) setError(e);
    } finally {
      if (mounted.current) setBusy(false);
    }
  };
  return (
    <span class="action">
      <button type="button" class={props.kind ?? 'plain'} data-action={props.name ?? props.label} disabled={busy} onClick={click}>
        {busy ? `${props.label}…` : props.label}
      </button>
      {error !== undefined && <ErrorText error={error} />}
    </span>
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

export function Field(props: { label: string; name: string; value?: string; type?: string; required?: boolean; hint?: string; options?: string[] }) {
  const id = `field-${props.name}-${useRef(Math.random().toString(36).slice(2)).current}`;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      {props.options ? (
        <select id={id} name={props.name}>
          {props.options.map((o) => (
            <option value={o} selected={o === props.value}>
              {o || '—'}
            </option>
          ))}
        </select>
      ) : (
        <input id={id} name={props.name} type={props.type ?? 'text'} value={props.value} required={props.required} autocomplete="off" />
      )}
      {props.hint && <small>{props.hint}</small>}
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
