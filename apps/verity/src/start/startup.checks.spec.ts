import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { StartupError } from '@verity/common';
import { listenError } from '@verity/platform';
import { MINIMUM_NODE_MAJOR, claimPort, assertSupportedNode } from './startup.checks';

describe('start-up checks', () => {
  it('the minimum Node.js major is the one package.json declares', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
    assert.equal(pkg.engines.node, `>=${MINIMUM_NODE_MAJOR}`);
    assert.doesNotThrow(() => assertSupportedNode(`${MINIMUM_NODE_MAJOR}.0.0`));
    assert.throws(() => assertSupportedNode(`${MINIMUM_NODE_MAJOR - 1}.9.0`), StartupError);
  });

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
});
