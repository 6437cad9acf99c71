/**
 * Text a remote party wrote, made storable: what a webhook receiver answered and the error
 * text of an attempt (a TLS error quotes the receiver's certificate). Requests are refused
 * when they carry such characters (requestLimits.ts); a remote answer cannot be refused, only
 * recorded. PostgreSQL stores no NUL in text and no engine stores a lone surrogate as it is,
 * so one such character would fail the statement that writes it, and with it every other
 * row of that statement (other partners' attempts included). This text is for people to
 * read: each character that cannot be stored becomes U+FFFD, as a decoder shows a byte
 * that is not UTF-8, the same on both engines (WebhookDeliveryAttempt, SandboxWebhookAttempt).
 */

/** `text` with each NUL (U+0000) and each lone surrogate replaced by U+FFFD. */
export function storableText(text: string): string {
  return text.toWellFormed().replaceAll('\u0000', '\uFFFD');
}

/** storableText for a nullable column. */
export const storableOrNull = (text: string | null): string | null => (text === null ? null : storableText(text));
