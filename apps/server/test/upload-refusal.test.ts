// A refused upload must reach the browser while it is still sending: a browser reads the answer
// only once it has sent the body or the connection closes, so a 413 on a connection left open
// looked like an upload stuck at 92 % (DESIGN §6: oversize → 413 naming the limit).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import { ORIGIN, buildTestApp, signedInUser } from './helpers';
import { fixture } from './files-helpers';

const PDF = fixture('record.pdf');

let t: TestApp;
let port: number;
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
beforeAll(async () => {
  t = await buildTestApp({ MAX_UPLOAD_MB: '1' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  keepAlive.destroy();
  await t.close();
});

describe('an upload over the limit, over a real connection', () => {
  it('a browser still sending a file over the limit gets the 413 naming the limit, and the server closes the connection so it stops sending', async () => {
    const { client } = await signedInUser(t.app);
    const boundary = '----kinchartOversize';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    );
    // Announces 8 MB, as a browser does for a file it is sending, but sends only 3 MB of it.
    const declared = 8 * 1024 * 1024;
    const answer = await new Promise<{ status: number; connection: string | undefined; body: string; closed: Promise<void> }>(
      (resolve, reject) => {
        const req = http.request({
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/user/files',
          // Keep-alive, as every browser asks: the server must still close this connection.
          agent: keepAlive,
          headers: {
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'content-length': declared,
            cookie: client.cookie,
            origin: ORIGIN,
          },
        });
        const closed = new Promise<void>((done) => req.on('socket', (socket) => socket.on('close', () => done())));
        req.on('error', () => undefined);
        req.on('response', (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body: Buffer.concat(chunks).toString(), closed }),
          );
          res.on('error', reject);
        });
        req.write(head);
        req.write(PDF);
        for (let i = 0; i < 48; i += 1) req.write(Buffer.alloc(64 * 1024, 0x20));
        // Never ends: the rest of the declared body would still be on its way.
      },
    );
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ message: 'File is larger than 1 MB' });
    expect(answer.connection).toBe('close');
    await answer.closed;
  });
});
