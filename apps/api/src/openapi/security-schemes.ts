/** The OpenAPI security scheme of `X-Api-Key` (every /v1 route but the download). */
export const API_KEY_SCHEME = 'ApiKey';
/** The OpenAPI security scheme of the operator API (`Authorization: Bearer <ADMIN_TOKEN>`). */
export const ADMIN_TOKEN_SCHEME = 'AdminToken';
