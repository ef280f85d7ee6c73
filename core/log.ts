import pino, { type Logger } from 'pino';

export type { Logger } from 'pino';

/** The process logger: JSON lines on stdout; secrets in requests are redacted. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'keiyaku' },
    redact: {
      paths: [
        'password',
        'currentPassword',
        'token',
        'refreshToken',
        'authorizationToken',
        '*.password',
        // HTTP client errors (axios and the SDKs on it) carry their request: headers with credentials, the body.
        'err.config',
        'err.request',
        'err.response.config',
        'err.response.request',
      ],
      censor: '[redacted]',
    },
  });
}
