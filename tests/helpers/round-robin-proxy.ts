/*
 * A small reverse proxy for tests of several API processes: each request goes to the next upstream in turn, as a
 * load balancer without session affinity would send it, and the proxy remembers which upstream answered what.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoundRobinProxy {
  url: string;
  /** The upstream (its index in the list) each request went to, in order, with its method and path. */
  served: { upstream: number; method: string; path: string; status: number }[];
  close(): Promise<void>;
}

export async function startRoundRobinProxy(upstreams: string[]): Promise<RoundRobinProxy> {
  const served: RoundRobinProxy['served'] = [];
  let next = 0;
  const server = http.createServer((request, response) => {
    const upstream = next;
    next = (next + 1) % upstreams.length;
    const target = new URL(request.url ?? '/', upstreams[upstream]);
    const forwardedFor = [request.headers['x-forwarded-for'], request.socket.remoteAddress].filter(Boolean).join(', ');
    const outgoing = http.request(
      target,
      { method: request.method, headers: { ...request.headers, host: target.host, 'x-forwarded-for': forwardedFor } },
      (answer) => {
        served.push({
          upstream,
          method: request.method ?? 'GET',
          path: target.pathname,
          status: answer.statusCode ?? 0,
        });
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    outgoing.on('error', (error) => {
      served.push({ upstream, method: request.method ?? 'GET', path: target.pathname, status: 502 });
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(`upstream ${upstream} failed: ${error.message}`);
    });
    request.pipe(outgoing);
  });
  // Every request opens its own connection to an upstream, so consecutive requests alternate reliably.
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
