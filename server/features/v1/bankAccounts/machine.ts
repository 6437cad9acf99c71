/**
 * v1 bank account statuses (the contract's V1BankAccountStatus). It documents no
 * transitions, so the contract lets verification move an account from any status to any
 * other (a bank can suspend an active account, or ask for a deposit again); setting the
 * status it already has is no change and emits nothing.
 */
import type { components } from '../../../../generated/types/ramp.ts';
import { everyValueOf } from '../../../shared/contractEnums.ts';
import { defineMachine } from '../../../shared/machine.ts';

export type V1BankAccountStatus = components['schemas']['V1BankAccountStatus'];

export const v1BankAccountStatuses = everyValueOf<V1BankAccountStatus>()([
  'bank_account_pending',
  'bank_account_awaiting_deposit_verification',
  'bank_account_active',
  'bank_account_inactive',
]);

/** Every new account starts here. */
export const initialBankAccountStatus: V1BankAccountStatus = 'bank_account_pending';

/** The bank's decision names the status it sets (the action is its target); from any status, and setting the current one is a stay. */
export const v1BankAccountMachine = defineMachine<V1BankAccountStatus, V1BankAccountStatus>({
  states: v1BankAccountStatuses,
  moves: {
    bank_account_pending: { from: v1BankAccountStatuses, to: 'bank_account_pending' },
    bank_account_awaiting_deposit_verification: { from: v1BankAccountStatuses, to: 'bank_account_awaiting_deposit_verification' },
    bank_account_active: { from: v1BankAccountStatuses, to: 'bank_account_active' },
    bank_account_inactive: { from: v1BankAccountStatuses, to: 'bank_account_inactive' },
  },
  staysAllowed: true,
});

/** Whether moving from `from` to `to` is a status change (and so emits `bank_account_updated`). */
export function canMoveBankAccount(from: V1BankAccountStatus, to: V1BankAccountStatus): boolean {
  return v1BankAccountMachine.canMove(from, to);
}

/** Usable as an offramp destination: active and compliant (V1BankAccount's status and compliant). */
export const isBankAccountUsable = (account: { status: string; compliant: boolean }) => account.status === 'bank_account_active' && account.compliant;
