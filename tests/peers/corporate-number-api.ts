import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One corporation as the national corporate number service (国税庁 法人番号システム Web-API) registers it. */
export interface Corporation {
  corporateNumber: string;
  name: string;
  prefectureName: string;
  cityName: string;
  streetNumber: string;
  enName?: string;
  updateDate?: string;
}

/** How the double answers: normally, with a server error, or too slowly (the caller's timeout fires first). */
export type PeerMode = 'normal' | 'error' | 'slow';

/** The 30 columns of a version 4 CSV record, in order. */
function record(sequence: number, c: Corporation): string[] {
  const fields = new Array<string>(30).fill('');
  fields[0] = String(sequence);
  fields[1] = c.corporateNumber;
  fields[2] = '01'; // process: new
  fields[3] = '0'; // correct
  fields[4] = c.updateDate ?? '2024-04-01';
  fields[5] = '2015-10-05'; // changeDate
  fields[6] = c.name;
  fields[8] = '301'; // kind: kabushiki kaisha
  fields[9] = c.prefectureName;
  fields[10] = c.cityName;
  fields[11] = c.streetNumber;
  fields[13] = '13';
  fields[14] = '101';
  fields[15] = '1000001';
  fields[22] = '2015-10-05'; // assignmentDate
  fields[23] = '1'; // latest
  fields[24] = c.enName ?? '';
  fields[29] = '0'; // hihyoji
  return fields;
}

/** Quotes every text field the way the Web-API does (doubling embedded quotes); numbers stay bare. */
const csvLine = (fields: string[]) =>
  fields.map((f, i) => (i === 0 || f === '' ? f : `"${f.replace(/"/g, '""')}"`)).join(',');

/**
 * A local HTTP double of the Web-API's `GET /{version}/num?id=&number=&type=&history=` that answers its CSV
 * format: a header line (lastUpdateDate,count,divideNumber,divideSize) then one record per corporation, in
 * UTF-8 (type=02, the type the service asks for). An unknown number answers the header with count 0.
 */
export class CorporateNumberApi {
  readonly corporations = new Map<string, Corporation>();
  readonly requests: URL[] = [];
  mode: PeerMode = 'normal';
  private server: Server | null = null;

  static async start(): Promise<CorporateNumberApi> {
    const peer = new CorporateNumberApi();
    peer.server = createServer((req, res) => void peer.handle(req, res));
    await new Promise<void>((resolve) => peer.server!.listen(0, '127.0.0.1', resolve));
    return peer;
  }

  /** The base URL to put in CORPORATE_NUMBER_API_URL (version path included, as for the real service). */
  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/4`;
  }

  add(corporation: Corporation): void {
    this.corporations.set(corporation.corporateNumber, corporation);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    this.requests.push(url);
    if (this.mode === 'slow') await new Promise((resolve) => setTimeout(resolve, 5_000));
    if (this.mode === 'error') {
      res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
      return;
    }
    if (url.pathname !== '/4/num' || !url.searchParams.get('id')) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('bad request');
      return;
    }
    const numbers = (url.searchParams.get('number') ?? '').split(',');
    const found = numbers.map((n) => this.corporations.get(n)).filter((c): c is Corporation => Boolean(c));
    const lines = [`2024-04-01,${found.length},1,1`, ...found.map((c, i) => csvLine(record(i + 1, c)))];
    const text = `${lines.join('\r\n')}\r\n`;
    res.writeHead(200, { 'content-type': 'text/csv; charset=UTF-8' }).end(Buffer.from(text, 'utf8'));
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
