import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DomainTypoModel, boundedDamerauLevenshtein, nameTypoDistance } from './email.typo';
import { REAL_NEAR_PROVIDER_DOMAINS } from './email.near-domains';

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

describe('nameTypoDistance', () => {
  it('allows only a doubled letter on 3-character names', () => {
    assert.equal(nameTypoDistance('aoll', 'aol'), 1);
    assert.equal(nameTypoDistance('ao', 'aol'), null);
    assert.equal(nameTypoDistance('bol', 'aol'), null);
    assert.equal(nameTypoDistance('gm', 'gmx'), null);
    assert.equal(nameTypoDistance('q', 'qq'), null);
    assert.equal(nameTypoDistance('mee', 'me'), null, 'two-letter names get no correction');
  });

  it('allows a transposition on 4-letter names but no substitution', () => {
    assert.equal(nameTypoDistance('lvie', 'live'), 1);
    assert.equal(nameTypoDistance('life', 'live'), null);
  });

  it('wants touching keys for substitutions and insertions', () => {
    assert.equal(nameTypoDistance('gmaik', 'gmail'), 1);
    assert.equal(nameTypoDistance('gmaiz', 'gmail'), null);
    assert.equal(nameTypoDistance('cloud', 'icloud'), null);
  });

  it('allows two edits on long names, keeping the first key', () => {
    assert.equal(nameTypoDistance('hotmaill', 'hotmail'), 1);
    assert.equal(nameTypoDistance('gogglemial', 'googlemail'), 2);
    assert.equal(nameTypoDistance('online', 't-online'), null);
    assert.equal(nameTypoDistance('foxmail', 'hotmail'), null);
    assert.equal(nameTypoDistance('googlemaps', 'googlemail'), null, 'the end changed');
  });

  it('changes the first key of a 7+ letter name only for a touching key or a dropped letter', () => {
    assert.equal(nameTypoDistance('jotmail', 'hotmail'), 1);
    assert.equal(nameTypoDistance('otmail', 'hotmail'), 1);
    assert.equal(nameTypoDistance('pocketmail', 'rocketmail'), null);
    assert.equal(nameTypoDistance('earthling', 'earthlink'), null, 'g and k do not touch');
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
    assert.equal(model.suggest('hotmial.co'), 'hotmail.com');
    assert.equal(model.suggest('outlok.com'), 'outlook.com');
  });

  it('fixes TLDs that are not delegated, towards the provider’s real domain', () => {
    assert.equal(model.suggest('mail.ry'), 'mail.ru');
    assert.equal(model.suggest('yandex.ry'), 'yandex.ru');
    assert.equal(model.suggest('orange.ft'), 'orange.fr');
    assert.equal(model.suggest('hotmail.co.ul'), 'hotmail.co.uk');
    assert.equal(model.suggest('yahoo.co.uj'), 'yahoo.co.uk');
    assert.equal(model.suggest('gmailcom'), 'gmail.com');
    assert.equal(model.suggest('gmai.lcom'), 'gmail.com');
    assert.equal(model.suggest('gmailc.om'), 'gmail.com', 'slipped onto a real TLD (Oman)');
  });

  it('fixes non-existent generic TLDs on any domain', () => {
    assert.equal(model.suggest('acme-widgets.con'), 'acme-widgets.com');
    assert.equal(model.suggest('acme-widgets.cmo'), 'acme-widgets.com');
    assert.equal(model.suggest('shop.acme.nett'), 'shop.acme.net');
    assert.equal(model.suggest('acme.lan'), null);
  });

  it('never corrects a real country variant or a real near neighbour', () => {
    for (const d of [
      'hotmail.no',
      'protonmail.ch',
      'fastmail.fm',
      'gm.com',
      'ms.com',
      'bol.com',
      'q.com',
      'foxmail.com',
      'runbox.com',
      'op.pl',
    ]) {
      assert.equal(model.suggest(d), null, d);
    }
  });

  it('corrects a listed domain near a provider (a typo-squat), never a listed TLD variant', () => {
    const listed = new Set(['gmai.com', 'hotmeil.com', 'acme.con', 'gmail.cm']);
    const vouched = new DomainTypoModel({ isKnown: (d) => listed.has(d) });
    assert.equal(vouched.suggest('gmai.com'), 'gmail.com');
    assert.equal(vouched.suggest('hotmeil.com'), 'hotmail.com');
    assert.equal(vouched.suggest('acme.con'), null, 'a list knows it: no TLD fix');
    assert.equal(vouched.suggest('gmail.cm'), null, 'a list knows it: no TLD fix');
    assert.equal(model.suggest('acme.con'), 'acme.com');
  });

  it("treats the big providers' neighbourhoods as typos, except the curated real domains", () => {
    for (const [typo, meant] of [
      ['tahoo.com', 'yahoo.com'],
      ['yahho.com', 'yahoo.com'],
      ['gimail.com', 'gmail.com'],
      ['outlock.com', 'outlook.com'],
      ['icould.com', 'icloud.com'],
      ['sbcgloble.net', 'sbcglobal.net'],
      ['comcaste.net', 'comcast.net'],
      ['wanadou.fr', 'wanadoo.fr'],
      ['mai.ru', 'mail.ru'],
      ['wev.de', 'web.de'],
      ['gmail.c', 'gmail.com'],
      ['comcast.nry', 'comcast.net'],
    ]) {
      assert.equal(model.suggest(typo), meant, typo);
    }
    for (const real of ['wahoo.com', 'cloud.com', 'bk.ru', 'compact.net', 'man.com', 'lice.com']) {
      assert.equal(model.suggest(real), null, real);
    }
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
      'mail.yahoo.com',
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

describe('REAL_NEAR_PROVIDER_DOMAINS', () => {
  it('gives each curated domain a reason, once, and the model never corrects one', () => {
    const model = new DomainTypoModel();
    const seen = new Set<string>();
    for (const { domain, reason } of REAL_NEAR_PROVIDER_DOMAINS) {
      assert.ok(reason.length >= 8, `${domain} has a reason`);
      assert.ok(!seen.has(domain), `${domain} listed once`);
      seen.add(domain);
      assert.equal(model.suggest(domain), null, domain);
    }
  });
});
