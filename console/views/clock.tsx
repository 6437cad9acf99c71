/** The partner's sandbox clock on the Organizations, customer and order pages. */
import { useEffect, useState } from 'preact/hooks';
import { ask, type Schema } from '../api.ts';
import { sandboxNow, useSession } from '../session.ts';
import { Action, ActionForm, ButtonRow, ErrorText, Field, Loading, Section, Status, text, useTicker, When } from '../ui.tsx';
import { orderHref, short } from './common.tsx';

/** The advances a partner reaches for most: past a quote (5 min), an order's funding deadline (1 h), a day. */
const presetAdvances: [label: string, by: string][] = [
  ['+1 min', 'PT1M'],
  ['+5 min', 'PT5M'],
  ['+1 h', 'PT1H'],
  ['+1 day', 'P1D'],
];

/**
 * The partner's sandbox clock: its time (moving while it runs, still while frozen), the
 * freeze/run toggle (setSandboxClock) and advances (advanceSandboxClock), with the last
 * advance's answer. An advance changes objects without a webhook of every kind (a quote
 * expiring records no event), so every page reloads after one.
 */
export function SandboxClock() {
  const { ramp, clock: reading, refresh } = useSession();
  const [answer, setAnswer] = useState<Schema<'SandboxClockAdvance'> | undefined>(undefined);
  useTicker(1000);
  // A page that shows the clock reads it afresh: what was created since may be due next.
  useEffect(() => reading.reload(), [reading.reload]);
  const clock = reading.clock;
  const now = sandboxNow(reading);
  const advance = (by: string) => ask(ramp.POST('/sandbox/clock/advance', { body: { by } }));
  const advanced = (value: unknown) => {
    const result = value as Schema<'SandboxClockAdvance'>;
    setAnswer(result);
    reading.set(result.clock);
    refresh();
  };
  if (!clock || !now) return <Section title="Sandbox clock" id="clock">{reading.error !== undefined ? <ErrorText error={reading.error} /> : <Loading />}</Section>;
  return (
    <Section title="Sandbox clock" id="clock">
      {reading.error !== undefined && <ErrorText error={reading.error} />}
      <dl class="facts">
        <dt>Sandbox time</dt>
        <dd id="clock-now">
          <When at={now.toISOString()} clock="sandbox" />
        </dd>
        <dt>State</dt>
        <dd id="clock-state">
          <Status value={clock.frozen ? 'frozen' : 'running'} /> <span class="muted">{clock.frozen ? 'nothing happens by itself until you advance it' : 'time passes as in real life'}</span>
        </dd>
        <dt>Next change due</dt>
        <dd id="clock-next-due">{clock.nextDueAt ? <When at={clock.nextDueAt} clock="sandbox" /> : <span class="muted">nothing scheduled</span>}</dd>
      </dl>
      <ButtonRow>
        <Action
          label={clock.frozen ? 'Let it run' : 'Freeze clock'}
          name="toggle-clock"
          kind="primary"
          run={() => ask(ramp.PUT('/sandbox/clock', { body: { frozen: !clock.frozen } }))}
          done={(value) => reading.set(value as Schema<'SandboxClock'>)}
        />
        {presetAdvances.map(([label, by]) => (
          <Action label={label} name={`advance-${by}`} run={() => advance(by)} done={advanced} />
        ))}
      </ButtonRow>
      <ActionForm label="Advance" id="advance-clock" submit={(data) => advance(text(data, 'by') ?? '')} done={advanced}>
        <Field label="Advance by (ISO 8601 duration)" name="by" required hint="P, then days (2D); T, then hours, minutes, seconds: PT5M1S, PT90M, P2D." />
      </ActionForm>
      {answer && <AdvanceAnswer answer={answer} />}
    </Section>
  );
}

/** What an advance applied, as advanceSandboxClock answered it: the kinds it applied, then each change at its due instant. */
function AdvanceAnswer({ answer }: { answer: Schema<'SandboxClockAdvance'> }) {
  const link = (t: Schema<'SandboxTransition'>) =>
    t.kind === 'orderFundingExpired' || t.kind === 'orderCompleted' ? (
      <a href={orderHref(t.organizationId, t.id)}>{short(t.id)}</a>
    ) : t.kind === 'v1TokensDelivered' || t.kind === 'v1OfframpFinalized' ? (
      <a href={`#/v1order/${t.id}`}>{short(t.id)}</a>
    ) : (
      <a href={`#/organization/${t.organizationId}`}>{short(t.id)}</a>
    );
  const applied = Object.entries(answer.counts).filter(([, count]) => count > 0);
  return (
    <div id="advance-answer" role="status">
      <h3>
        Last advance: to <When at={answer.clock.now} clock="sandbox" />, {applied.length === 0 ? 'nothing was due' : `${applied.reduce((sum, [, count]) => sum + count, 0)} change(s) applied`}
      </h3>
      {applied.length > 0 && (
        <dl class="facts counts">
          {applied.map(([kind, count]) => (
            <>
              <dt>{kind}</dt>
              <dd data-count={kind}>{count}</dd>
            </>
          ))}
        </dl>
      )}
      {answer.transitions.length > 0 && (
        <table>
          <caption class="sr-only">Changes applied, in the order they fell due</caption>
          <thead>
            <tr>
              <th scope="col">Change</th>
              <th scope="col">Object</th>
              <th scope="col">Due at</th>
            </tr>
          </thead>
          <tbody>
            {answer.transitions.map((t) => (
              <tr key={`${t.kind}:${t.id}`} data-transition={t.id}>
                <td>{t.kind}</td>
                <td>{link(t)}</td>
                <td>
                  <When at={t.dueAt} clock="sandbox" />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {answer.unlistedTransitions > 0 && <p>The first {answer.transitions.length} are listed; the events of the {answer.unlistedTransitions} others are under Events.</p>}
    </div>
  );
}
