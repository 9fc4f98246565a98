#!/usr/bin/env node
// Regenerates the did_you_mean corpora in libs/validation/src/email/__fixtures__/typo-corpus/
// (see SOURCES.md there). Deterministic: same packages in, same files out.
//   node scripts/quality/email-typo-corpus.mjs
// Typos are made systematically from SEEDS (deletion, insertion, transposition, substitution
// by QWERTY adjacency, TLD typos, dot slips); a generated string that is a real domain (the
// curated lists, the seeds) or lands under a delegated TLD other than the seed's is dropped.
// Typo-squats that provider or disposable lists know stay typos (docs/models/email.md).
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const TLDS = new Set(require('tlds'));
const COMMON_PROVIDERS = require('email-providers/common.json');
const OUT = join(import.meta.dirname, '../../libs/validation/src/email/__fixtures__/typo-corpus');

/** Big providers whose users mistype them (name of 5+ letters: shorter names are real words). */
const SEEDS = [
  'gmail.com', 'yahoo.com', 'hotmail.com', 'outlook.com', 'icloud.com', 'googlemail.com',
  'ymail.com', 'rocketmail.com', 'protonmail.com', 'yandex.ru', 'yandex.com', 'comcast.net',
  'verizon.net', 'sbcglobal.net', 'bellsouth.net', 'charter.net', 'earthlink.net',
  'hanmail.net', 'naver.com', 'yahoo.co.uk', 'yahoo.co.jp', 'yahoo.fr', 'yahoo.de',
  'hotmail.co.uk', 'hotmail.fr', 'hotmail.de', 'hotmail.it', 'outlook.fr', 'orange.fr',
  'wanadoo.fr', 'laposte.net', 'libero.it', 'virgilio.it', 'seznam.cz', 'interia.pl',
  'rediffmail.com', 'bigpond.com', 'btinternet.com', 'fastmail.com', 'tutanota.com',
  'mail.ru', 'web.de', 'gmx.de', 'gmx.net', 'aol.com', 'live.com', 'msn.com', 'free.fr',
]; // prettier-ignore

/**
 * Real organisations' and mail services' domains one or two keys from a big provider, and
 * providers' real country variants (each checked by hand as a live site or mail service).
 */
const CURATED_LEGIT = [
  'gm.com', 'gmc.com', 'ms.com', 'bol.com', 'q.com', 'foxmail.com', 'runbox.com', 'op.pl',
  'life.com', 'love.com', 'like.com', 'lime.com', 'cloud.com', 'wahoo.com', 'mall.com',
  'ya.ru', 'bk.ru', 'list.ru', 'inbox.ru', 'inbox.lv', 'inbox.lt', 'mail.ee', 'email.cz',
  'post.cz', 'zoho.eu', 'tuta.io', 'tutanota.de', 'pm.me', 'proton.me', 'gmx.at', 'gmx.ch',
  'hotmail.no', 'hotmail.se', 'hotmail.dk', 'hotmail.be', 'hotmail.nl', 'hotmail.ch',
  'hotmail.gr', 'hotmail.com.br', 'hotmail.com.ar', 'hotmail.com.tr', 'hotmail.co.th',
  'outlook.es', 'outlook.it', 'outlook.com.br', 'outlook.com.au', 'outlook.be', 'outlook.dk',
  'live.nl', 'live.be', 'live.se', 'live.no', 'live.dk', 'live.at', 'live.com.au',
  'live.com.mx', 'yahoo.se', 'yahoo.no', 'yahoo.dk', 'yahoo.gr', 'yahoo.ie', 'yahoo.in',
  'yahoo.com.sg', 'yahoo.com.ph', 'yahoo.com.vn', 'yahoo.com.tw', 'yahoo.com.hk',
  'yahoo.co.nz', 'yahoo.co.th', 'yahoo.co.kr', 'yandex.kz', 'yandex.by', 'yandex.ua',
  'yandex.com.tr', 'protonmail.ch', 'fastmail.fm', 'fastmail.net', 'gmx.fr', 'gmx.it',
  'gmx.es', 'gmx.co.uk', 'web.com', 'mail.ua', 'orange.com', 'orange.pl', 'wp.com',
  'comcast.com', 'verizon.com', 'att.com', 'charter.com', 'cox.com', 'shaw.com', 'naver.net',
  'daum.net', 'yahoo.net', 'apple.com', 'google.com', 'microsoft.com', 'amazon.com',
  'ibm.com', 'intel.com', 'oracle.com', 'sap.com', 'siemens.com', 'bosch.com', 'nokia.com',
  'ericsson.com', 'sony.com', 'samsung.com', 'lg.com', 'hp.com', 'dell.com', 'cisco.com',
  'adobe.com', 'netflix.com', 'spotify.com', 'github.com', 'gitlab.com', 'mozilla.org',
  'wikipedia.org', 'apache.org', 'debian.org', 'kernel.org', 'python.org', 'w3.org',
  'ietf.org', 'iana.org', 'icann.org', 'mit.edu', 'stanford.edu', 'harvard.edu',
  'berkeley.edu', 'ox.ac.uk', 'cam.ac.uk', 'ucl.ac.uk', 'ethz.ch', 'epfl.ch', 'tum.de',
  'uni-heidelberg.de', 'sorbonne-universite.fr', 'u-tokyo.ac.jp', 'tsinghua.edu.cn',
  'nasa.gov', 'nih.gov', 'europa.eu', 'gov.uk', 'bbc.co.uk', 'bbc.com', 'nytimes.com',
  'lemonde.fr', 'spiegel.de', 'corriere.it', 'elpais.com', 'nhk.or.jp', 'abc.net.au',
  'cbc.ca', 'ft.com', 'wsj.com', 'reuters.com', 'bloomberg.com', 'ikea.com', 'hm.com',
  'zara.com', 'bmw.de', 'vw.de', 'audi.de', 'fiat.it', 'renault.fr', 'airbus.com',
  'boeing.com', 'ge.com', 'ups.com', 'fedex.com', 'dhl.com', 'dhl.de', 'usps.com',
  'vodafone.com', 'vodafone.de', 'telekom.de', 'telefonica.com', 'orange.es', 'bt.com',
  'sky.com', 'virginmedia.com', 'ee.co.uk', 'o2.co.uk', 'o2.de', 'swisscom.ch', 'kpn.com',
  'telenor.no', 'telia.se', 'elisa.fi', 'mts.ru', 'rambler.ru', 'ukr.net', 'i.ua',
  'abv.bg', 'centrum.cz', 'azet.sk', 'freemail.hu', 'sapo.pt', 'tiscali.it', 'alice.it',
  'tin.it', 'aruba.it', 'ziggo.nl', 'home.nl', 'planet.nl', 'telenet.be', 'skynet.be',
  'bluewin.ch', 'sunrise.ch', 'chello.at', 'aon.at', 'a1.net', 'mailbox.org', 'posteo.de',
  'hushmail.com', 'mail.de', 'freenet.de', 'arcor.de', 'online.de', 'kabelmail.de',
  'netcologne.de', 'ewetel.net', 'vtxnet.ch', 'hispeed.ch', 'eircom.net', 'iinet.net.au',
  'optusnet.com.au', 'xtra.co.nz', 'rogers.com', 'sympatico.ca', 'videotron.ca',
  'telus.net', 'windstream.net', 'frontier.com', 'centurylink.net', 'optonline.net',
  'roadrunner.com', 'twc.com', 'rr.com', 'mediacombb.net', 'suddenlink.net', 'netzero.net',
  'juno.com', 'aim.com', 'mac.com', 'me.com', 'qq.com', '163.com', '126.com', 'sina.com',
  'sohu.com', 'yeah.net', 'aliyun.com', '139.com', 'daum.net', 'kakao.com', 'nate.com',
  'hanmail.net', 'ezweb.ne.jp', 'docomo.ne.jp', 'softbank.ne.jp', 'nifty.com', 'biglobe.ne.jp',
  'so-net.ne.jp', 'rediffmail.com', 'indiatimes.com', 'sify.com', 'vsnl.net',
]; // prettier-ignore

const KEY_ROWS = ['1234567890', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
const ADJ = new Map();
KEY_ROWS.forEach((row, r) => {
  [...row].forEach((ch, c) => {
    const near = [];
    for (const [dr, dc] of [[0, -1], [0, 1], [-1, 0], [-1, 1], [1, 0], [1, -1]]) {
      const k = KEY_ROWS[r + dr]?.[c + dc];
      if (k) near.push(k);
    }
    ADJ.set(ch, near);
  });
}); // prettier-ignore

function split(domain) {
  const dot = domain.indexOf('.');
  return { name: domain.slice(0, dot), suffix: domain.slice(dot + 1) };
}

/** Single-edit typos of a name (keeps the first key for names under 7 letters). */
function nameTypos(name) {
  const out = new Set();
  const from = name.length >= 7 ? 0 : 1;
  for (let i = from; i < name.length; i++) {
    if (name.length > 4) out.add(name.slice(0, i) + name.slice(i + 1)); // deletion
    for (const k of ADJ.get(name[i]) ?? []) {
      out.add(name.slice(0, i) + k + name.slice(i + 1)); // adjacent substitution
      out.add(name.slice(0, i) + k + name.slice(i)); // adjacent insertion
    }
    out.add(name.slice(0, i) + name[i] + name.slice(i)); // doubled key
  }
  for (let i = 0; i + 1 < name.length; i++) {
    if (name[i] !== name[i + 1]) {
      out.add(name.slice(0, i) + name[i + 1] + name[i] + name.slice(i + 2)); // transposition
    }
  }
  out.delete(name);
  return out;
}

/** Typos of the TLD that are not delegated TLDs (a delegated one could be real). */
function tldTypos(suffix) {
  const dot = suffix.lastIndexOf('.');
  const head = dot < 0 ? '' : suffix.slice(0, dot + 1);
  const tld = suffix.slice(dot + 1);
  const out = new Set();
  for (let i = 0; i < tld.length; i++) {
    for (const k of ADJ.get(tld[i]) ?? []) out.add(tld.slice(0, i) + k + tld.slice(i + 1));
    out.add(tld.slice(0, i) + tld[i] + tld.slice(i));
    if (tld.length > 2) out.add(tld.slice(0, i) + tld.slice(i + 1));
    if (i + 1 < tld.length) out.add(tld.slice(0, i) + tld[i + 1] + tld[i] + tld.slice(i + 2));
  }
  return [...out].filter((t) => t !== tld && !TLDS.has(t)).map((t) => head + t);
}

let seed = 12;
function random() {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
}
function sample(items, n) {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy.slice(0, n);
}

const seeds = new Set(SEEDS);
/** One edit from a seed under its suffix: a typo, or a typo-squat registered to catch one. */
const nearSeed = (d) =>
  SEEDS.some((s) => {
    const a = split(s);
    const b = split(d);
    return d !== s && a.suffix === b.suffix && nameTypos(a.name).has(b.name);
  });
// common.json lists squats of big providers (gmai.com, btinernet.com) beside real providers:
// only the hand-checked CURATED_LEGIT protects a domain near a seed.
const curated = new Set(CURATED_LEGIT);
const legit = new Set([...COMMON_PROVIDERS.filter((d) => !nearSeed(d)), ...CURATED_LEGIT]);
const isReal = (d) => legit.has(d) || curated.has(d) || seeds.has(d);

const typoTarget = new Map();
const ambiguous = new Set();
function addTypo(typo, target) {
  if (isReal(typo)) return;
  const prev = typoTarget.get(typo);
  if (prev !== undefined && prev !== target) ambiguous.add(typo);
  typoTarget.set(typo, target);
}
for (const s of SEEDS) {
  const { name, suffix } = split(s);
  if (name.length >= 5) for (const t of nameTypos(name)) addTypo(`${t}.${suffix}`, s);
  for (const t of tldTypos(suffix)) addTypo(`${name}.${t}`, s);
  addTypo(s.replace(/\./g, ''), s); // dot left out
  addTypo(`${name.slice(0, -1)}.${name.slice(-1)}${suffix.replace(/\./g, '')}`, s); // dot slip
}
for (const t of ambiguous) typoTarget.delete(t);

const typos = sample([...typoTarget.entries()].sort(), 800).sort();
writeFileSync(join(OUT, 'typos.tsv'), typos.map(([t, want]) => `${t}\t${want}\n`).join(''));
writeFileSync(
  join(OUT, 'legit.txt'),
  [...legit]
    .sort()
    .map((d) => `${d}\n`)
    .join(''),
);
console.log(`typos: ${typos.length} (of ${typoTarget.size}), legit: ${legit.size}`);
