/**
 * What an event is about, so `GET /sandbox/events?subjectId=` (listSandboxEvents) can answer
 * the timeline of one order, payment account, swap, bank account or verification from the
 * outbox: the `id` of the object the event carries (`order`, `paymentAccount` of a v2
 * envelope; the one entity of a v1 body), else the organization it concerns (KYC, KYB and
 * v1 customer events, whose subject is the organization itself).
 */
export function eventSubjectId(surface: 'v1' | 'v2', type: string, payload: unknown, organizationId: string): string {
  const body = payload as Record<string, unknown>;
  const object = surface === 'v1' ? body[type] : Object.entries(body).find(([name, value]) => !['event', 'eventId', 'occurredAt', 'organizationId'].includes(name) && typeof value === 'object' && value !== null)?.[1];
  const id = (object as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' ? id : organizationId;
}
