import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DomainTypoModel, boundedDamerauLevenshtein } from './email.typo';

describe('boundedDamerauLevenshtein', () => {
  it('counts a transposition as one edit', () => {
    assert.equal(boundedDamerauLevenshtein('gmial.com', 'gmail.com', 2), 1);
  });

  it('counts insertions, deletions and substitutions', () => {
    assert.equal(boundedDamerauLevenshtein('hotmail.co', 'hotmail.com', 2), 1);
    assert.equal(boundedDamerauLevenshtein('yahooo.con', 'yahoo.com', 2), 2);
  });

  it('stops at the bound', () => {
    assert.equal(boundedDamerauLevenshtein('example.org', 'gmail.com', 2), 3);
    assert.equal(boundedDamerauLevenshtein('a', 'abcdef', 2), 3);
  });
});

describe('DomainTypoModel', () => {
  const model = new DomainTypoModel();

  it('corrects popular provider typos', () => {
    assert.equal(model.suggest('gmial.com'), 'gmail.com');
    assert.equal(model.suggest('gamil.com'), 'gmail.com');
    assert.equal(model.suggest('yahoo.con'), 'yahoo.com');
    assert.equal(model.suggest('hotmail.co'), 'hotmail.com');
    assert.equal(model.suggest('hotmial.con'), 'hotmail.com');
    assert.equal(model.suggest('outlok.com'), 'outlook.com');
  });

  it('fixes non-existent TLDs on any domain', () => {
    assert.equal(model.suggest('acme-widgets.con'), 'acme-widgets.com');
    assert.equal(model.suggest('acme-widgets.cmo'), 'acme-widgets.com');
  });

  it('returns null for known-good and unrelated domains', () => {
    for (const d of [
      'gmail.com',
      'mail.com',
      'gmx.de',
      'yahoo.co.jp',
      'acme-widgets.com',
      'iana.org',
      'acme.com',
      'gmail.org',
    ]) {
      assert.equal(model.suggest(d), null, d);
    }
  });

  it('never swaps one country code for another', () => {
    assert.equal(model.suggest('yahoo.co.kr'), null);
    assert.equal(model.suggest('hotmail.be'), null);
  });

  it('gives the same answer from its memo table', () => {
    assert.equal(model.suggest('gmial.com'), 'gmail.com');
    assert.equal(model.suggest('gmial.com'), 'gmail.com');
  });
});
