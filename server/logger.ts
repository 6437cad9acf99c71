/** Structured JSON logs (pino). Keys and secrets are redacted wherever they appear. */
import { pino, type Logger } from 'pino';

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
