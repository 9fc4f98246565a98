import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig, withListenPort } from './load-config';

describe('public address settings', () => {
  it('trusts no forwarded headers unless TRUST_PROXY names proxies or a hop count', () => {
    assert.equal(loadConfig({}).TRUST_PROXY, false);
    assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).TRUST_PROXY, [
      '10.0.0.0/8',
      '127.0.0.1',
    ]);
    assert.equal(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY, 2);
    assert.throws(() => loadConfig({ TRUST_PROXY: 'true' }), /TRUST_PROXY/);
    assert.throws(() => loadConfig({ TRUST_PROXY: 'proxy.example' }), ConfigError);
  });

  it('requires PUBLIC_URL in the distributed shape only', () => {
    const kafka = { ROW_BUS: 'kafka', KAFKA_BROKERS: '127.0.0.1:9092' };
    assert.throws(() => loadConfig(kafka), /PUBLIC_URL: required when ROW_BUS=kafka/);
    assert.equal(
      loadConfig({ ...kafka, PUBLIC_URL: 'https://verity.example.com' }).PUBLIC_URL,
      'https://verity.example.com',
    );
    assert.equal(loadConfig({}).PUBLIC_URL, undefined);
  });

  it('PORT=0 given a real port: a derived CONSOLE_URL follows it, a set one stays', () => {
    const derived = withListenPort(loadConfig({ PORT: '0' }), 43210);
    assert.equal(derived.PORT, 43210);
    assert.equal(derived.CONSOLE_URL, 'http://127.0.0.1:43210/console');
    const set = withListenPort(
      loadConfig({ PORT: '0', CONSOLE_URL: 'https://console.example.com' }),
      43210,
    );
    assert.equal(set.CONSOLE_URL, 'https://console.example.com');
    const underPublic = withListenPort(
      loadConfig({ PORT: '0', PUBLIC_URL: 'https://verity.example.com' }),
      43210,
    );
    assert.equal(underPublic.CONSOLE_URL, 'https://verity.example.com/console');
    const fixed = loadConfig({ PORT: '8081' });
    assert.equal(withListenPort(fixed, 8081), fixed);
  });
});
