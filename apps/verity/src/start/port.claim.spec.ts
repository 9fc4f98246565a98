import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createHttpServer } from 'node:http';
import { connect, createServer, type Socket } from 'node:net';
import { StartupError } from '@verity/common';
import { listenError } from '@verity/platform';
import { claimPort } from './port.claim';

/** Connects and sends one GET with no timeout; resolves with the whole answer once the socket ends. */
function requestWithoutTimeout(port: number): { answer: Promise<string>; socket: Socket } {
  const socket = connect(port, '127.0.0.1');
  socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const answer = new Promise<string>((resolve, reject) => {
    socket.once('error', reject);
    socket.once('end', () => resolve(text));
  });
  return { answer, socket };
}

const connected = (socket: Socket) =>
  new Promise<void>((resolve) => socket.once('connect', () => resolve()));

describe('the port claim of `verity start`', () => {
  it('a port another server holds is a port_in_use StartupError, before and at listen', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as { port: number };
    try {
      await assert.rejects(claimPort('127.0.0.1', port), (error: unknown) => {
        assert.ok(error instanceof StartupError);
        assert.equal(error.failure, 'port_in_use');
        assert.equal((error.cause as { code: string }).code, 'EADDRINUSE');
        return true;
      });
      // The real listen's failure maps the same way (another program took the port in between).
      const second = createServer();
      const failure = await new Promise<unknown>((resolve) => {
        second.once('error', resolve);
        second.listen(port, '127.0.0.1');
      });
      assert.equal(listenError('127.0.0.1', port, failure)?.failure, 'port_in_use');
      assert.equal(listenError('127.0.0.1', port, new Error('other')), null);
    } finally {
      holder.close();
    }
    const claim = await claimPort('127.0.0.1', port);
    assert.equal(claim.port, port, 'a free PORT is used as it is');
    await claim.release();
  });

  it('PORT=0 claims a free port now and holds it until released, so no one takes it in between', async () => {
    const claim = await claimPort('127.0.0.1', 0);
    assert.ok(claim.port > 0);
    const thief = createServer();
    const refused = await new Promise<unknown>((resolve) => {
      thief.once('error', resolve);
      thief.listen(claim.port, '127.0.0.1', () => resolve(null));
    });
    assert.equal((refused as { code?: string } | null)?.code, 'EADDRINUSE', 'held while starting');
    await claim.release();
    await claim.release();
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(claim.port, '127.0.0.1', resolve));
    server.close();
  });

  it('a client that connects while the service starts never holds the release back, and is answered after the listen', async () => {
    const claim = await claimPort('127.0.0.1', 0);
    const early = requestWithoutTimeout(claim.port);
    await connected(early.socket);
    const idle = connect(claim.port, '127.0.0.1'); // connects and sends nothing
    await connected(idle);
    await claim.release(); // resolves although both connections are still open
    const server = createHttpServer((_req, res) => res.end('answered by the real server'));
    await new Promise<void>((resolve) => server.listen(claim.port, '127.0.0.1', resolve));
    claim.handOver(server);
    try {
      const answer = await early.answer;
      assert.match(answer, /^HTTP\/1\.1 200 /);
      assert.match(answer, /answered by the real server$/);
    } finally {
      idle.destroy();
      server.closeAllConnections();
      server.close();
    }
  });

  it('a failed start closes the connections it held', async () => {
    const claim = await claimPort('127.0.0.1', 0);
    const early = requestWithoutTimeout(claim.port);
    await connected(early.socket);
    await claim.release();
    claim.handOver(null);
    assert.equal(await early.answer.catch(() => ''), '');
    assert.ok(early.socket.destroyed || early.socket.readableEnded);
  });
});
