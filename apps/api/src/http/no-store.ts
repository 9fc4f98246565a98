import { Header } from '@nestjs/common';

/**
 * `Cache-Control: no-store` on a route whose answer carries a secret (a key value, a signing
 * secret, a CSRF token, a signed download link): no cache, shared or private, may keep a copy
 * (RFC 9111 §5.2.2.5).
 */
export const NoStore = (): MethodDecorator => Header('Cache-Control', 'no-store');
