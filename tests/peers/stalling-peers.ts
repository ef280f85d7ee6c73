/*
 * Peers that hold a job or a request in flight for the crash tests: a TCP server that accepts and never answers
 * (a hung clamd or SMTP relay: the job that talks to it stays active), and a TSA relay that passes timestamp
 * requests on to a real TSA and tells the test the moment it has answered (so it can kill the signing process
 * right after, in the middle of writing the signed revision).
 */
import http from 'node:http';
import net from 'node:net';

/**
 * A TCP server on 127.0.0.1 that reads everything and answers nothing — except what `answer` returns a reply for
 * (clamd's zPING, so the service starts); `connections` counts who came.
 */
export async function startSilentServer(
  answer: (data: Buffer) => string | null = () => null,
): Promise<{ port: number; connections: () => number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let count = 0;
  const server = net.createServer((socket) => {
    count += 1;
    sockets.add(socket);
    socket.on('data', (data) => {
      const reply = answer(data);
      if (reply !== null) socket.end(reply);
    });
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * An HTTP relay for RFC 3161 requests to `target()` (the URL is read per request: the real TSA may move between
 * restarts). After each reply has been written it calls `onReplied`.
 */
export async function startTsaRelay(
  target: () => string,
  onReplied: () => void,
): Promise<{ url: string; replies: () => number; close(): Promise<void> }> {
  let replies = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      try {
        const upstream = await fetch(target(), {
          method: 'POST',
          headers: { 'content-type': 'application/timestamp-query' },
          body: Buffer.concat(chunks),
        });
        const body = Buffer.from(await upstream.arrayBuffer());
        res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? '' });
        res.end(body, () => {
          replies += 1;
          onReplied();
        });
      } catch {
        res.writeHead(502).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/tsa`,
    replies: () => replies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
