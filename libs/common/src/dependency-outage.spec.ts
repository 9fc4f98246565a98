import assert from 'node:assert/strict';
import { createConnection, createServer } from 'node:net';
import { describe, it } from 'node:test';
import { InfraOutage, infraOutageOf, recogniseOutages } from './dependency-outage';

/** A real refused connection: a loopback port nothing listens on (bound, then released). */
async function refusedConnection(): Promise<Error> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  const port = typeof address === 'object' && address ? address.port : 0;
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('error', resolve);
    socket.once('connect', () => assert.fail('connected to a closed port'));
  });
}

/** An error type of a client library an adapter would recognise (a stand-in for kafkajs's). */
class ProbeClientError extends Error {
  constructor(readonly transient: boolean) {
    super('probe client failed');
  }
}

describe('infraOutageOf', () => {
  it('a socket error no adapter claimed is `network`', async () => {
    const refused = await refusedConnection();
    assert.equal(infraOutageOf(refused), 'network');
    assert.equal(infraOutageOf(new Error('query failed', { cause: refused })), 'network');
  });

  it('an InfraOutage names its dependency, also as a cause and inside an AggregateError', async () => {
    const outage = new InfraOutage('postgres', await refusedConnection());
    assert.match(outage.message, /^postgres unavailable: connect ECONNREFUSED/);
    assert.equal(infraOutageOf(outage), 'postgres');
    assert.equal(infraOutageOf(new Error('transaction failed', { cause: outage })), 'postgres');
    assert.equal(
      infraOutageOf(new AggregateError([new Error('a bug'), outage], 'two failed')),
      'postgres',
    );
  });

  it('names the dependency whose adapter recognises the error, over `network`', async () => {
    const refused = await refusedConnection();
    const transient = new ProbeClientError(true);
    assert.equal(infraOutageOf(transient), null, 'not recognised before the adapter registers');
    recogniseOutages('kafka', (e) => e instanceof ProbeClientError && e.transient);
    recogniseOutages('kafka', (e) => e instanceof ProbeClientError && e.transient);
    assert.equal(infraOutageOf(transient), 'kafka');
    assert.equal(infraOutageOf(new ProbeClientError(false)), null);
    // The specific dependency wins whichever comes first in the chain.
    assert.equal(infraOutageOf(Object.assign(transient, { cause: refused })), 'kafka');
    assert.equal(infraOutageOf(new Error('x', { cause: refused })), 'network');
    const wrapped = Object.assign(new Error('socket first'), { code: 'ECONNRESET' });
    assert.equal(infraOutageOf(Object.assign(wrapped, { cause: transient })), 'kafka');
  });

  it('permanent failures and non-errors are not outages; messages are never read', () => {
    assert.equal(infraOutageOf(new Error('connect ECONNREFUSED 127.0.0.1:5432')), null);
    assert.equal(infraOutageOf(Object.assign(new Error('x'), { code: 'ENOENT', errno: -2 })), null);
    assert.equal(infraOutageOf(undefined), null);
    assert.equal(infraOutageOf('ECONNREFUSED'), null);
    const loop: { cause?: unknown } = {};
    loop.cause = loop;
    assert.equal(infraOutageOf(loop), null);
  });
});
