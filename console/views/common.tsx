/** What several pages share: links to objects, the simulations in words, an event's status and subject. */
import type { Schema } from '../api.ts';
import type { SandboxEvent } from '../session.ts';
import { Action, ButtonRow, Empty } from '../ui.tsx';

export const short = (id: string) => id.slice(0, 8);
export const orderHref = (organizationId: string, orderId: string) => `#/organization/${organizationId}/order/${orderId}`;
export const organizationHref = (organizationId: string) => `#/organization/${organizationId}`;
export const requestsHref = (objectId?: string) => (objectId ? `#/requests/object/${objectId}` : '#/requests');

export type Organization = Schema<'Organization'>;

/** Each simulator in words: its button, and what it stands for. */
export const simulationWords: Record<string, [label: string, meaning: string]> = {
  deposit: ['Deposit the funds', "the customer's SPEI deposit arrives and funds the order"],
  confirmSourceFunds: ['Confirm source funds', "the wallet's tokens arrived (offramp, swap)"],
  deliver: ['Deliver', 'the target funds reach the customer'],
  makeClaimable: ['Make claimable', 'the tokens wait for the customer to claim them'],
  completeClaim: ['Complete the claim', 'the claimed tokens are delivered'],
  fail: ['Fail', 'it fails (transactionFailed)'],
  expireFunding: ['Expire funding', 'the funding deadline passes before the deposit: the order is canceled'],
  refund: ['Refund', 'the funds go back to the customer'],
  replaceFundingInstructions: ['Replace funding instructions', 'the bank issues new deposit details with a new deadline'],
  fiatReceived: ['Fiat received', 'the SPEI deposit arrives (onramp)'],
  burnConfirmed: ['Burn confirmed', "the customer's tokens were burned (offramp)"],
  tokensDelivered: ['Tokens delivered', 'the tokens reach the wallet (onramp)'],
  fiatSent: ['Fiat sent', 'the pesos leave for the bank account (offramp)'],
  reversalWindowPassed: ['Reversal window passed', 'the offramp can no longer be reversed: it is final'],
  expireTransaction: ['Expire', "the transaction's time runs out"],
  sendConfirmed: ['Send confirmed', 'the source tokens arrived'],
  fundsReceived: ['Funds received', 'the swap has the funds'],
  delivered: ['Delivered', 'the target tokens reach the wallet'],
};

/** A simulator's button label and meaning (its action name when it has no words). */
export const wordsOf = (action: string) => simulationWords[action] ?? [action, ''];

/**
 * The simulations of an object: those its status allows as buttons, each with what it means,
 * and the others under "Other simulations" with the reason the API refuses them (pressing one
 * shows that refusal).
 */
export function Simulations<A extends string>(props: { all: A[]; applies: (action: A) => boolean; run: (action: A) => () => Promise<unknown>; done: () => void; status: string; what: string }) {
  const offered = props.all.filter(props.applies);
  const others = props.all.filter((a) => !props.applies(a));
  return (
    <>
      {offered.length === 0 ? (
        <Empty>No simulation applies to a {props.status} {props.what}.</Empty>
      ) : (
        <ButtonRow id="applicable-simulations">
          {offered.map((a) => (
            <Action label={wordsOf(a)[0]} name={a} kind="primary" title={wordsOf(a)[1]} run={props.run(a)} done={props.done} />
          ))}
        </ButtonRow>
      )}
      <ul class="meanings">
        {offered.map((a) => (
          <li>
            <strong>{wordsOf(a)[0]}</strong> (<code>{a}</code>): {wordsOf(a)[1]}
          </li>
        ))}
      </ul>
      {others.length > 0 && (
        <details>
          <summary>Other simulations: the API refuses them from {props.status}</summary>
          <ButtonRow id="other-simulations">
            {others.map((a) => (
              <Action label={wordsOf(a)[0]} name={a} title={wordsOf(a)[1]} run={props.run(a)} done={props.done} />
            ))}
          </ButtonRow>
        </details>
      )}
    </>
  );
}

/** The status an event's object has after it, whatever the event's shape. */
export function statusIn(e: SandboxEvent): string | undefined {
  const object = (e.surface === 'v1' ? e.body[e.eventType] : Object.values(e.body).find((v) => typeof v === 'object' && v !== null)) as { status?: unknown } | undefined;
  return typeof object?.status === 'string' ? object.status : undefined;
}

/** What an event is about, in words, and the page that shows it. */
export function subjectOf(e: SandboxEvent): { label: string; href: string } {
  const id = short(e.subjectId);
  switch (e.eventType) {
    case 'orderUpdated':
      return { label: `order ${id}`, href: orderHref(e.organizationId, e.subjectId) };
    case 'order_updated':
      return { label: `v1 order ${id}`, href: `#/v1order/${e.subjectId}` };
    case 'paymentAccountUpdated':
      return { label: `payment account ${id}`, href: organizationHref(e.organizationId) };
    case 'swap_updated':
      return { label: `v1 swap ${id}`, href: organizationHref(e.organizationId) };
    case 'bank_account_updated':
      return { label: `v1 bank account ${id}`, href: organizationHref(e.organizationId) };
    default:
      return { label: `organization ${id}`, href: organizationHref(e.subjectId) };
  }
}
