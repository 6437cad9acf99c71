/** The verification state machine and its v1 projections, as tables. */
import { describe, expect, it } from 'vitest';
import { v1CustomerStatus, type V1KybStatus, type VerificationStatus } from '../../../server/features/verification/machine.ts';
import {
  acceptsSubmission,
  canMove,
  nextStatus,
  v1KybCounts,
  v1KybStatus,
  v1KycStatus,
  v2FromV1KybStatus,
  verificationStatuses,
} from '../../../server/features/verification/machine.ts';
import { Problem } from '../../../server/shared/problems.ts';

// Written out here, not derived from the module: the table the module must hold.
// ✓ legal move, · stay (no move), ✗ refused.
const table: Record<VerificationStatus, Record<VerificationStatus, '✓' | '·' | '✗'>> = {
  notStarted: { notStarted: '·', inProgress: '✓', submitted: '✓', approved: '✓', denied: '✓' },
  inProgress: { notStarted: '✗', inProgress: '·', submitted: '✓', approved: '✓', denied: '✓' },
  submitted: { notStarted: '✗', inProgress: '✓', submitted: '·', approved: '✓', denied: '✓' },
  approved: { notStarted: '✗', inProgress: '✗', submitted: '✗', approved: '·', denied: '✗' },
  denied: { notStarted: '✗', inProgress: '✗', submitted: '✗', approved: '✗', denied: '·' },
};

const pairs = verificationStatuses.flatMap((from) => verificationStatuses.map((to) => ({ from, to, cell: table[from][to] })));

describe('verification moves (KYC and KYB alike)', () => {
  it('covers all 25 pairs', () => expect(pairs).toHaveLength(25));

  for (const kind of ['kyc', 'kyb'] as const) {
    for (const { from, to, cell } of pairs) {
      it(`${kind}: ${from} → ${to} is ${cell === '✓' ? 'applied' : cell === '·' ? 'a stay' : 'refused with conflict'}`, () => {
        expect(canMove(from, to)).toBe(cell === '✓');
        if (cell === '✗') {
          let thrown: unknown;
          try {
            nextStatus(kind, 'org-1', from, to);
          } catch (error) {
            thrown = error;
          }
          expect(thrown).toBeInstanceOf(Problem);
          expect((thrown as Problem).slug).toBe('conflict');
          expect((thrown as Problem).detail).toContain(kind.toUpperCase());
        } else {
          expect(nextStatus(kind, 'org-1', from, to)).toBe(to);
        }
      });
    }
  }

  it('accepts a submission exactly where submitted is a move or a stay', () => {
    for (const status of verificationStatuses) {
      expect(acceptsSubmission(status), status).toBe(table[status].submitted !== '✗');
    }
  });

  it('reads an unknown stored status as notStarted', () => {
    expect(nextStatus('kyc', 'org-1', 'bogus', 'submitted')).toBe('submitted');
  });
});

describe('v1 projections', () => {
  const kyc: [VerificationStatus, boolean, string][] = [
    ['notStarted', false, 'kyc_not_started'],
    ['inProgress', false, 'kyc_not_started'],
    ['inProgress', true, 'kyc_rejected'],
    ['submitted', true, 'kyc_proposed'],
    ['approved', true, 'kyc_approved'],
    ['approved', false, 'kyc_approved'],
    ['denied', true, 'kyc_rejected'],
    ['denied', false, 'kyc_rejected'],
  ];
  for (const [status, submitted, v1] of kyc) {
    it(`KYC ${status}${submitted ? ' after a submission' : ''} is ${v1}`, () => expect(v1KycStatus(status, submitted)).toBe(v1));
  }

  const kyb: [VerificationStatus, V1KybStatus, [number, number, number, number]][] = [
    ['notStarted', 'not_started', [0, 0, 4, 4]],
    ['inProgress', 'awaiting_documents', [0, 2, 2, 4]],
    ['submitted', 'awaiting_review', [0, 4, 0, 4]],
    ['approved', 'approved', [4, 0, 0, 4]],
    ['denied', 'denied', [0, 4, 0, 4]],
  ];
  for (const [status, v1, [approved, submitted, notStarted, total]] of kyb) {
    it(`KYB ${status} is ${v1} with counts ${approved}/${submitted}/${notStarted}/${total}, and back`, () => {
      expect(v1KybStatus(status)).toBe(v1);
      expect(v2FromV1KybStatus(v1)).toBe(status);
      expect(v1KybCounts(status)).toEqual({ approved, submitted, notStarted, total });
    });
  }

  const customer: [VerificationStatus, string][] = [
    ['notStarted', 'customer_pending'],
    ['inProgress', 'customer_pending'],
    ['submitted', 'customer_pending'],
    ['approved', 'customer_verified'],
    ['denied', 'customer_failed'],
  ];
  for (const [status, v1] of customer) {
    it(`a customer whose verification is ${status} is ${v1}, person (KYC) or business (KYB)`, () => {
      expect(v1CustomerStatus(status)).toBe(v1);
      expect(v1CustomerStatus({ type: 'personal', kyc_status: status, kyb_status: 'notStarted' })).toBe(v1);
      expect(v1CustomerStatus({ type: 'business', kyc_status: 'notStarted', kyb_status: status })).toBe(v1);
    });
  }
});
