import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { VerityError } from '@verity/common';
import { validateWebhookUrl } from './webhook.url';

function refused(url: string, allowPrivate: boolean, message: RegExp): void {
  assert.throws(
    () => validateWebhookUrl(url, allowPrivate),
    (err: unknown) =>
      err instanceof VerityError &&
      err.code === 'validation_error' &&
      err.status === 400 &&
      message.test(err.message),
    url,
  );
}

describe('validateWebhookUrl', () => {
  it('accepts public http and https URLs', () => {
    assert.equal(
      validateWebhookUrl('https://hooks.example.com/v1?x=1', false).hostname,
      'hooks.example.com',
    );
    assert.equal(validateWebhookUrl('http://8.8.8.8:8080/hook', false).port, '8080');
  });

  it('refuses malformed URLs, other schemes and credentials', () => {
    refused('not a url', true, /not a valid URL/);
    refused('', true, /non-empty/);
    refused(`https://x.io/${'a'.repeat(2100)}`, true, /at most 2048/);
    refused('ftp://example.com/x', true, /http or https/);
    refused('file:///etc/passwd', true, /http or https/);
    refused('javascript:alert(1)', true, /http or https/);
    refused('https://user:pass@example.com/', true, /credentials/);
    refused('https://user@example.com/', true, /credentials/);
  });

  it('refuses private literals and localhost unless private targets are allowed', () => {
    refused('http://127.0.0.1/', false, /loopback/);
    refused('http://2130706433/', false, /loopback/); // decimal spelling of 127.0.0.1
    refused('http://0x7f.1/', false, /loopback/);
    refused('http://[::1]:8080/', false, /loopback/);
    refused('http://[::ffff:169.254.169.254]/', false, /metadata/);
    refused('http://169.254.169.254/latest/meta-data/', false, /metadata/);
    refused('http://10.0.0.1/', false, /private/);
    refused('http://localhost:3000/', false, /loopback/);
    refused('http://api.localhost/', false, /loopback/);
    // Spellings of the same names: trailing dots (FQDN form), case, full-width (IDN mapping).
    refused('http://localhost./', false, /loopback/);
    refused('http://a.localhost./', false, /loopback/);
    refused('http://LocalHost../x', false, /loopback/);
    refused('http://\uff4c\uff4f\uff43\uff41\uff4c\uff48\uff4f\uff53\uff54/', false, /loopback/);
    refused('http://127.0.0.1./', false, /loopback/);
    assert.equal(validateWebhookUrl('http://127.0.0.1:3000/', true).hostname, '127.0.0.1');
    assert.equal(validateWebhookUrl('http://localhost/', true).hostname, 'localhost');
  });

  it('names the setting that allows private targets when it refuses one', () => {
    refused('http://127.0.0.1:8080/hook', false, /WEBHOOK_ALLOW_PRIVATE=true/);
    refused('http://10.0.0.1/', false, /private address: .*WEBHOOK_ALLOW_PRIVATE=true/);
  });
});
