import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, createServer, request as httpRequest, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { HttpConnections } from './http-connections';

function closed(socket: Socket): Promise<void> {
  return new Promise((resolve) => socket.once('close', () => resolve()));
}

function get(port: number, path: string, agent: Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('HttpConnections', () => {
  it('lets server.close() finish: silent and idle connections are closed, an in-flight request is answered', async () => {
    const held: ServerResponse[] = [];
    let received!: () => void;
    const slowArrived = new Promise<void>((resolve) => (received = resolve));
    const server = createServer((req, res) => {
      if (req.url === '/slow') {
        held.push(res);
        received();
      } else res.end('fast');
    });
    const connections = new HttpConnections(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;

    // (a) connected, never sends a byte.
    const silent = connect(port, '127.0.0.1');
    const silentClosed = closed(silent);
    await new Promise<void>((resolve) => silent.once('connect', resolve));
    // (b) kept alive and idle after one answered request.
    const keepAlive = new Agent({ keepAlive: true });
    assert.deepEqual(await get(port, '/fast', keepAlive), { status: 200, body: 'fast' });
    const [idle] = Object.values(keepAlive.freeSockets).flat();
    assert.ok(idle, 'the kept-alive connection is idle in the agent');
    const idleClosed = closed(idle);
    // (c) a request in flight.
    const busy = new Agent({ keepAlive: true });
    const slow = get(port, '/slow', busy);
    await slowArrived;

    connections.closeIdle();
    const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
    await Promise.all([silentClosed, idleClosed]);
    held[0].end('slow');
    assert.deepEqual(await slow, { status: 200, body: 'slow' });
    await serverClosed;
    keepAlive.destroy();
    busy.destroy();
  });
});
