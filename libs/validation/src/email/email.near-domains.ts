// Real domains one or two keystrokes from a big mail provider, shipped so the typo model never
// "corrects" them (docs/models/email.md, "Typo model"). Each is a live organisation's or mail
// service's domain; the structural rules already leave most near-misses alone, this list covers
// the ones the rules alone would rewrite or that a future rule change might.

/** Real domains near popular providers, each with what it is. */
export const REAL_NEAR_PROVIDER_DOMAINS: readonly string[] = [
  'gm.com', // General Motors (near gmx.com)
  'gmc.com', // GMC trucks (near gmx.com)
  'ms.com', // Morgan Stanley (near msn.com)
  'bol.com', // bol.com, Dutch retailer (near aol.com)
  'q.com', // CenturyLink (Qwest) mail (near qq.com)
  'foxmail.com', // Tencent Foxmail (near hotmail.com)
  'runbox.com', // Runbox, Norwegian mail provider (near inbox.com)
  'op.pl', // Onet Poczta (near wp.pl, o2.pl)
  'life.com', // LIFE magazine (near live.com)
  'love.com', // (near live.com)
  'like.com', // (near live.com)
  'lime.com', // Lime scooters (near live.com)
  'cloud.com', // Cloud Software Group (near icloud.com)
  'wahoo.com', // Wahoo Fitness (near yahoo.com)
  'mall.com', // (near mail.com)
  'ya.ru', // Yandex short mail domain (near yandex.ru)
  'bk.ru', // Mail.ru Group (near mail.ru)
  'list.ru', // Mail.ru Group
  'inbox.ru', // Mail.ru Group (near inbox.com)
  'inbox.lv', // Inbox.lv, Latvian mail provider
  'inbox.lt', // Inbox.lt, Lithuanian mail provider
  'mail.ee', // Estonian mail provider (near mail.com)
  'email.cz', // Seznam mail domain
  'post.cz', // Seznam mail domain
  'zoho.eu', // Zoho EU data centre
  'tuta.io', // Tuta (Tutanota) mail domain
  'tutanota.de', // Tuta (Tutanota) mail domain
  'pm.me', // Proton mail short domain
  'proton.me', // Proton
  'gmx.at', // GMX Austria
  'gmx.ch', // GMX Switzerland
  'hotmail.no', // Microsoft consumer mail, Norway
  'protonmail.ch', // Proton, Switzerland
  'fastmail.fm', // Fastmail
  'comcast.com', // Comcast corporate
  'verizon.com', // Verizon corporate
  'att.com', // AT&T corporate
  'charter.com', // Charter corporate
  'cox.com', // Cox corporate
  'shaw.com', // Shaw corporate
  'naver.net', // Naver
  'daum.net', // Daum / Kakao mail
  'yahoo.net', // Yahoo
  'aim.com', // AOL Instant Messenger mail
  'att.net', // AT&T mail
  'mac.com', // Apple
  'me.com', // Apple
];
