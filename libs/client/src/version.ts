/** Sent in User-Agent; a test keeps it equal to libs/client/package.json's version. */
export const CLIENT_VERSION = '0.1.0';
