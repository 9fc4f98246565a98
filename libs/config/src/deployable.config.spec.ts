import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from './load-config';

describe('a deployable started on its own', () => {
  it('refuses to start without DATABASE_URL, naming the variable in one line', () => {
    assert.throws(
      () => loadConfig({}, { deployable: true }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.issues.length === 1 &&
        /^DATABASE_URL: required by a deployable started on its own/.test(error.issues[0]) &&
        error.issues[0].includes('EMBEDDED_DATABASE=true'),
    );
  });

  it('starts on DATABASE_URL, or on the embedded database only when EMBEDDED_DATABASE=true', () => {
    const url = 'postgres://verity@db.example:5432/verity';
    assert.equal(loadConfig({ DATABASE_URL: url }, { deployable: true }).DATABASE_URL, url);
    assert.equal(
      loadConfig({ EMBEDDED_DATABASE: 'true' }, { deployable: true }).EMBEDDED_DATABASE,
      true,
    );
    assert.throws(
      () => loadConfig({ EMBEDDED_DATABASE: 'false' }, { deployable: true }),
      /DATABASE_URL/,
    );
  });

  it('leaves `verity start` (the embedded default) free to run without DATABASE_URL', () => {
    assert.equal(loadConfig({}).DATABASE_URL, undefined);
    assert.equal(loadConfig({}).EMBEDDED_DATABASE, false);
  });
});
