import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { invocation } from './invocation';

describe('how a hint names the verity command', () => {
  it('is `verity` only when PATH leads to this very script', () => {
    assert.equal(
      invocation('/usr/local/bin/verity', '/home/me', '/usr/bin:/usr/local/bin'),
      'verity',
    );
  });

  it('is the script’s path otherwise: ./node_modules/.bin/verity, node bin/verity.js', () => {
    assert.equal(
      invocation('/home/me/app/node_modules/.bin/verity', '/home/me/app', '/usr/bin'),
      './node_modules/.bin/verity',
    );
    assert.equal(
      invocation('/src/verity/bin/verity.js', '/src/verity', '/usr/bin'),
      'node bin/verity.js',
    );
    assert.equal(
      invocation('/src/verity/bin/verity.js', '/tmp/work', '/usr/bin'),
      'node /src/verity/bin/verity.js',
    );
  });
});
