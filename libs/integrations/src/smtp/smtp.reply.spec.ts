import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { classifyRcpt, enhancedStatus, tooManyRecipients } from './smtp.reply';

const says = (code: number, text: string, address = 'jane@example.com') => {
  const answer = classifyRcpt({ code, text }, address);
  return [answer.verdict, answer.reason, answer.retryable];
};

describe('classifyRcpt', () => {
  it('calls only a mailbox-specific 5xx undeliverable', () => {
    assert.deepEqual(says(250, '2.1.5 Ok'), ['deliverable', 'accepted', false]);
    assert.deepEqual(says(550, '5.1.1 No such user'), ['undeliverable', 'mailbox_missing', false]);
    assert.deepEqual(says(553, '5.1.3 Bad address'), ['undeliverable', 'mailbox_missing', false]);
    assert.deepEqual(says(550, '5.2.1 Mailbox disabled'), [
      'undeliverable',
      'mailbox_disabled',
      false,
    ]);
  });

  it('never calls a policy refusal, a full mailbox or another 5xx undeliverable', () => {
    assert.deepEqual(says(550, '5.7.1 Blocked by DNSBL'), ['unknown', 'policy_refusal', false]);
    assert.deepEqual(says(552, '5.2.2 Mailbox full'), ['unknown', 'mailbox_full', false]);
    assert.deepEqual(says(554, 'Rejected'), ['unknown', 'policy_refusal', false]);
    assert.deepEqual(says(550, '5.5.1 Bad sequence'), ['unknown', 'policy_refusal', false]);
  });

  it('reads a plain 550/551/553 as a missing mailbox only when it names the recipient', () => {
    assert.deepEqual(says(550, 'No such user here'), ['undeliverable', 'mailbox_missing', false]);
    assert.deepEqual(says(550, 'Mailbox unavailable'), ['undeliverable', 'mailbox_missing', false]);
    assert.deepEqual(says(551, '<jane@example.com> not local'), [
      'undeliverable',
      'mailbox_missing',
      false,
    ]);
    assert.deepEqual(says(550, 'Relay access denied'), ['unknown', 'policy_refusal', false]);
    assert.deepEqual(says(550, 'Sender address rejected: unknown user'), [
      'unknown',
      'policy_refusal',
      false,
    ]);
    assert.deepEqual(says(550, 'Service unavailable; client host blocked'), [
      'unknown',
      'policy_refusal',
      false,
    ]);
    assert.deepEqual(says(554, 'No such user'), ['unknown', 'policy_refusal', false]);
  });

  it('answers 4xx unknown and retryable, except a full mailbox', () => {
    assert.deepEqual(says(451, '4.7.1 Greylisted'), ['unknown', 'temporary_failure', true]);
    assert.deepEqual(says(450, 'try later'), ['unknown', 'temporary_failure', true]);
    assert.deepEqual(says(421, '4.7.0 Too many connections'), [
      'unknown',
      'connection_limit',
      true,
    ]);
    assert.deepEqual(says(452, '4.2.2 Over quota'), ['unknown', 'mailbox_full', false]);
  });
});

describe('enhancedStatus and tooManyRecipients', () => {
  it('reads RFC 3463 codes whose class matches the reply', () => {
    assert.equal(enhancedStatus({ code: 550, text: '5.1.1 No such user' }), '5.1.1');
    assert.equal(enhancedStatus({ code: 550, text: '4.1.1 mismatched class' }), null);
    assert.equal(enhancedStatus({ code: 550, text: 'No code 5.1.1' }), null);
    assert.equal(tooManyRecipients({ code: 452, text: '4.5.3 Too many recipients' }), true);
    assert.equal(tooManyRecipients({ code: 452, text: 'Too many recipients' }), true);
    assert.equal(tooManyRecipients({ code: 451, text: '4.7.1 Greylisted' }), false);
  });
});
