// Real domains one or two keystrokes from a big mail provider (docs/models/email.md, "Typo
// model"): the typo model treats the neighbourhood of a big provider as typos and typo-squats
// (registered to harvest mis-typed mail), so each live organisation or mail service inside it
// is listed here with what it is. Only this curated list (and the popular providers) protects a
// near-miss; the bundled provider and disposable lists do not, because they list squats too.

/** One real domain near a popular provider, and why it is real. */
export interface RealNearDomain {
  readonly domain: string;
  readonly reason: string;
}

/** Real domains near popular providers, each with what it is. */
export const REAL_NEAR_PROVIDER_DOMAINS: readonly RealNearDomain[] = [
  { domain: 'gm.com', reason: 'General Motors (near gmx.com)' },
  { domain: 'gmc.com', reason: 'GMC trucks (near gmx.com)' },
  { domain: 'ms.com', reason: 'Morgan Stanley (near msn.com)' },
  { domain: 'bol.com', reason: 'bol.com, Dutch retailer (near aol.com)' },
  { domain: 'q.com', reason: 'CenturyLink (Qwest) mail (near qq.com)' },
  { domain: 'foxmail.com', reason: 'Tencent Foxmail (near hotmail.com)' },
  { domain: 'runbox.com', reason: 'Runbox, Norwegian mail provider (near inbox.com)' },
  { domain: 'op.pl', reason: 'Onet Poczta (near wp.pl, o2.pl)' },
  { domain: 'life.com', reason: 'LIFE magazine (near live.com)' },
  { domain: 'love.com', reason: 'registered dictionary-word domain in use (near live.com)' },
  { domain: 'like.com', reason: 'registered dictionary-word domain in use (near live.com)' },
  { domain: 'lime.com', reason: 'Lime scooters (near live.com)' },
  { domain: 'cloud.com', reason: 'Cloud Software Group (near icloud.com)' },
  { domain: 'wahoo.com', reason: 'Wahoo Fitness (near yahoo.com)' },
  { domain: 'mall.com', reason: 'registered dictionary-word domain in use (near mail.com)' },
  { domain: 'ya.ru', reason: 'Yandex short mail domain (near yandex.ru)' },
  { domain: 'bk.ru', reason: 'Mail.ru Group (near mail.ru)' },
  { domain: 'list.ru', reason: 'Mail.ru Group' },
  { domain: 'inbox.ru', reason: 'Mail.ru Group (near inbox.com)' },
  { domain: 'inbox.lv', reason: 'Inbox.lv, Latvian mail provider' },
  { domain: 'inbox.lt', reason: 'Inbox.lt, Lithuanian mail provider' },
  { domain: 'mail.ee', reason: 'Estonian mail provider (near mail.com)' },
  { domain: 'email.cz', reason: 'Seznam mail domain' },
  { domain: 'post.cz', reason: 'Seznam mail domain' },
  { domain: 'zoho.eu', reason: 'Zoho EU data centre' },
  { domain: 'tuta.io', reason: 'Tuta (Tutanota) mail domain' },
  { domain: 'tutanota.de', reason: 'Tuta (Tutanota) mail domain' },
  { domain: 'pm.me', reason: 'Proton mail short domain' },
  { domain: 'proton.me', reason: 'Proton AG mail domain' },
  { domain: 'gmx.at', reason: 'GMX Austria' },
  { domain: 'gmx.ch', reason: 'GMX Switzerland' },
  { domain: 'hotmail.no', reason: 'Microsoft consumer mail, Norway' },
  { domain: 'protonmail.ch', reason: 'Proton, Switzerland' },
  { domain: 'fastmail.fm', reason: 'Fastmail mail domain' },
  { domain: 'comcast.com', reason: 'Comcast corporate' },
  { domain: 'verizon.com', reason: 'Verizon corporate' },
  { domain: 'att.com', reason: 'AT&T corporate' },
  { domain: 'charter.com', reason: 'Charter corporate' },
  { domain: 'cox.com', reason: 'Cox corporate' },
  { domain: 'shaw.com', reason: 'Shaw corporate' },
  { domain: 'naver.net', reason: 'Naver Corporation domain' },
  { domain: 'daum.net', reason: 'Daum / Kakao mail' },
  { domain: 'yahoo.net', reason: 'Yahoo mail domain' },
  { domain: 'aim.com', reason: 'AOL Instant Messenger mail' },
  { domain: 'att.net', reason: 'AT&T consumer mail' },
  { domain: 'mac.com', reason: 'Apple iCloud mail legacy domain' },
  { domain: 'me.com', reason: 'Apple iCloud mail legacy domain' },
];
