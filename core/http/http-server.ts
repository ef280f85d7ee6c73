/*
 * The HTTP server around the Koa app. Two things happen before Koa ever sees a request, and both are settled here:
 * slow clients are cut off (a slowloris that trickles its headers, an upload that never ends, an idle keep-alive
 * connection), and requests Node's parser refuses — headers or URL past 16 KiB, a malformed request line, a timeout —
 * are answered as JSON:API errors like every other error, instead of Node's bare status line with an empty body.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type RequestListener, type Server, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { AppError, type ErrorCode, toJsonApiErrors } from './errors.ts';

/** Creates the server with the configured timeouts and JSON:API answers to what Node refuses before routing. */
export function createHttpServer(listener: RequestListener, timeouts: Config['http'], logger: Logger): Server {
  const server = createServer(
    {
      headersTimeout: timeouts.headersTimeoutMs,
      requestTimeout: timeouts.requestTimeoutMs,
      // Node checks both timeouts on this interval (30 s by default, which would let a 20 s limit run to 50 s).
      connectionsCheckingInterval: Math.min(5_000, Math.max(50, Math.floor(timeouts.headersTimeoutMs / 4))),
    },
    listener,
  );
  server.keepAliveTimeout = timeouts.keepAliveTimeoutMs;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(error, socket, logger));
  return server;
}

function codeOf(error: NodeJS.ErrnoException): ErrorCode {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return 'REQUEST_HEADER_TOO_LARGE';
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return 'REQUEST_TIMEOUT';
    default:
      return 'MALFORMED_REQUEST';
  }
}

/**
 * Answers a request Node could not parse, then closes the connection (its framing is lost). Nothing is written when
 * the client is gone or a response has already begun on the socket, which a second status line would corrupt.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, logger: Logger): void {
  const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const traceId = randomUUID();
  const appError = new AppError(codeOf(error));
  logger.info({ traceId, code: appError.code, cause: error.code }, 'request refused before routing');
  // The headers (Accept-Language among them) were not parsed: the title is in the default language, and both
  // languages are in meta.messages as always.
  const body = JSON.stringify(toJsonApiErrors(appError, 'ja', traceId));
  const head = [
    `HTTP/1.1 ${appError.status} ${STATUS_CODES[appError.status]}`,
    'Content-Type: application/vnd.api+json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${traceId}`,
    'X-Content-Type-Options: nosniff',
    'Cache-Control: no-store',
    'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
  // A peer that never reads would hold the socket open; it gets a second to take the answer.
  setTimeout(() => socket.destroy(), 1_000).unref();
}
