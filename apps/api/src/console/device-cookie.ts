import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SigningSecretProvider } from '@verity/batch';
import { CONSOLE_CONFIG, type ConsoleConfig } from '@verity/config';
import { readCookie } from './console-http';

export const DEVICE_COOKIE = 'verity_device';
/** Labels the key derived from the signing secret, so it signs nothing but device cookies. */
const KEY_LABEL = 'verity console device cookie v1';
const NONCE = /^[A-Za-z0-9_-]{22}$/;

/**
 * Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): a browser
 * that signed in to an email gets `<nonce>.<HMAC(nonce, email)>`, and its later sign-ins for
 * that email are trusted: they have their own failure budget (the nonce's) and skip the
 * email's and the address's, which strangers' guesses may have spent. No table: the HMAC key
 * is derived from the download signing secret (rotating it distrusts every browser once).
 */
@Injectable()
export class DeviceCookies {
  private key: Promise<Buffer> | undefined;

  constructor(
    private readonly secrets: SigningSecretProvider,
    @Inject(CONSOLE_CONFIG) private readonly config: ConsoleConfig,
  ) {}

  /** The device id (nonce) of the request's cookie when it was issued for `email`, else null. */
  async trusted(request: FastifyRequest, email: string): Promise<string | null> {
    const value = readCookie(request, DEVICE_COOKIE);
    const dot = value?.indexOf('.') ?? -1;
    if (!value || dot < 0) return null;
    const nonce = value.slice(0, dot);
    if (!NONCE.test(nonce)) return null;
    const presented = Buffer.from(value.slice(dot + 1), 'base64url');
    const expected = await this.mac(nonce, email);
    return presented.length === expected.length && timingSafeEqual(presented, expected)
      ? nonce
      : null;
  }

  /** Trusts this browser for `email` from now on (a fresh nonce: a new failure budget). */
  async issue(request: FastifyRequest, reply: FastifyReply, email: string): Promise<void> {
    const nonce = randomBytes(16).toString('base64url');
    const value = `${nonce}.${(await this.mac(nonce, email)).toString('base64url')}`;
    const secure = request.protocol === 'https' ? '; Secure' : '';
    const maxAge = this.config.CONSOLE_DEVICE_TRUST_DAYS * 86_400;
    // Only the sign-in routes read it; SameSite=Strict: no other site's page can send it.
    void reply.header(
      'Set-Cookie',
      `${DEVICE_COOKIE}=${value}; Path=/console/api/auth; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure}`,
    );
  }

  private async mac(nonce: string, email: string): Promise<Buffer> {
    this.key ??= this.secrets
      .secret()
      .then((secret) => createHmac('sha256', secret).update(KEY_LABEL).digest())
      .catch((error: unknown) => {
        this.key = undefined;
        throw error;
      });
    return createHmac('sha256', await this.key)
      .update(`${nonce}\n${email.trim().toLowerCase()}`)
      .digest();
  }
}
