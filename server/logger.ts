/** Structured JSON logs (pino). Keys and secrets are redacted wherever they appear. */
import { pino, type Logger } from 'pino';
import type { AvailabilityChange } from './storage/health.ts';

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'ramp-sandbox' },
      redact: {
        paths: ['req.headers.authorization', 'authorization', 'apiKey', 'key', 'secret', '*.secret', '*.key', 'assertion', 'refresh_token'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}

/**
 * An outage in two lines, its start and its end, however many requests and job runs meet
 * it: they answer 503 and try again on their own (storage/health.ts).
 */
export function logAvailability(logger: Logger) {
  return (change: AvailabilityChange) => {
    if (change.available) logger.info({ unavailableMs: change.unavailableMs }, 'the database is available again');
    else logger.error({ err: change.error }, 'the database is unavailable; requests answer 503 with Retry-After until it is back');
  };
}
