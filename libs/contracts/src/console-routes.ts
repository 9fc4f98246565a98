// The console's JSON API (/console/api) as one table, in the manner of ts-rest: each route's
// method, path (`:name` is a parameter), query, body and answer. The console's fetch helper
// (apps/console/src/api.ts) is typed from it; the server's handlers are mapped by it
// (`@ConsoleRoute` in apps/api/src/console), which checks their answer types; and
// test/e2e/console-routes.e2e.spec.ts compares it with the routes Nest registers, both ways.
// Plain data and types only: the console bundles this file (no zod, no server code).

import type { ExplainedVerifyResult, IssuedApiKey, LedgerPage } from './account';
import type {
  ConsoleApiKeys,
  ConsoleBatchJob,
  ConsoleBatchJobs,
  ConsoleBatchJobsQuery,
  ConsoleLedgerQuery,
  ConsoleLinkRequest,
  ConsoleLoginRequest,
  ConsoleOverview,
  ConsolePasswordRequest,
  ConsoleSessionView,
  ConsoleStatement,
  ConsoleStatementQuery,
  ConsoleUsage,
  ConsoleUsageQuery,
  ConsoleWebhooks,
  WebhookDelivery,
  WebhookResend,
  WebhookSecret,
  WebhookTestRequest,
} from './console';
import type { FeedbackRequest, FeedbackResult, FeedbackStats } from './feedback';
import type {
  CreateKeyBody,
  EmailValidateRequest,
  IpIntelRequest,
  PhoneValidateRequest,
  VerifyRequest,
} from './request-bodies';
import type { EmailResult, IpResult, PhoneResult, VerifyResult } from './results';

/** Where the table's paths start. */
export const CONSOLE_API = '/console/api';

export type ConsoleMethod = 'GET' | 'POST' | 'DELETE';

/** A type the table carries for the compiler only (ts-rest's `c.type<T>()`): `{}` at run time. */
export interface Shape<T> {
  readonly shape?: T;
}
const shape = <T>(): Shape<T> => ({});

/** A playground verify answer: with its reasons, base score and history when `explain` is true. */
export type PlaygroundVerifyResult = VerifyResult &
  Partial<Omit<ExplainedVerifyResult, keyof VerifyResult>>;

interface RouteSpec {
  readonly method: ConsoleMethod;
  readonly path: `/${string}`;
  readonly query?: Shape<object>;
  readonly body?: Shape<unknown>;
  /** `void`: 204, no body. */
  readonly response: Shape<unknown>;
}

export const CONSOLE_ROUTES = {
  // Signing in (console-auth.controller.ts).
  session: { method: 'GET', path: '/session', response: shape<ConsoleSessionView>() },
  login: {
    method: 'POST',
    path: '/auth/login',
    body: shape<ConsoleLoginRequest>(),
    response: shape<ConsoleSessionView>(),
  },
  redeemLink: {
    method: 'POST',
    path: '/auth/link',
    body: shape<ConsoleLinkRequest>(),
    response: shape<ConsoleSessionView>(),
  },
  setPassword: {
    method: 'POST',
    path: '/auth/password',
    body: shape<ConsolePasswordRequest>(),
    response: shape<ConsoleSessionView>(),
  },
  logout: { method: 'POST', path: '/auth/logout', response: shape<void>() },
  logoutEverywhere: { method: 'POST', path: '/auth/logout-everywhere', response: shape<void>() },

  // The account: overview, usage, billing (console-account.controller.ts).
  overview: { method: 'GET', path: '/overview', response: shape<ConsoleOverview>() },
  usage: {
    method: 'GET',
    path: '/usage',
    query: shape<ConsoleUsageQuery>(),
    response: shape<ConsoleUsage>(),
  },
  statement: {
    method: 'GET',
    path: '/statement',
    query: shape<ConsoleStatementQuery>(),
    response: shape<ConsoleStatement>(),
  },
  ledger: {
    method: 'GET',
    path: '/ledger',
    query: shape<ConsoleLedgerQuery>(),
    response: shape<LedgerPage>(),
  },

  // API keys (console-keys.controller.ts).
  keys: { method: 'GET', path: '/keys', response: shape<ConsoleApiKeys>() },
  createKey: {
    method: 'POST',
    path: '/keys',
    body: shape<CreateKeyBody>(),
    response: shape<IssuedApiKey>(),
  },
  rotateKey: { method: 'POST', path: '/keys/:id/rotate', response: shape<IssuedApiKey>() },
  revokeKey: { method: 'DELETE', path: '/keys/:id', response: shape<void>() },

  // Batch (console-batch.controller.ts); an upload is multipart: type, file, column, header,
  // fields, smtp, webhook_url as on POST /v1/batch.
  jobs: {
    method: 'GET',
    path: '/batch',
    query: shape<ConsoleBatchJobsQuery>(),
    response: shape<ConsoleBatchJobs>(),
  },
  createJob: {
    method: 'POST',
    path: '/batch',
    body: shape<FormData>(),
    response: shape<ConsoleBatchJob>(),
  },
  job: { method: 'GET', path: '/batch/:jobId', response: shape<ConsoleBatchJob>() },
  cancelJob: { method: 'DELETE', path: '/batch/:jobId', response: shape<ConsoleBatchJob>() },

  // Webhooks (console-webhooks.controller.ts).
  webhooks: { method: 'GET', path: '/webhooks', response: shape<ConsoleWebhooks>() },
  revealWebhookSecret: {
    method: 'POST',
    path: '/webhooks/secret/reveal',
    response: shape<WebhookSecret>(),
  },
  rotateWebhookSecret: {
    method: 'POST',
    path: '/webhooks/secret/rotate',
    response: shape<WebhookSecret>(),
  },
  testWebhook: {
    method: 'POST',
    path: '/webhooks/test',
    body: shape<WebhookTestRequest>(),
    response: shape<WebhookDelivery>(),
  },
  resendWebhook: {
    method: 'POST',
    path: '/webhooks/deliveries/:id/resend',
    response: shape<WebhookResend>(),
  },

  // The playground (console-playground.controller.ts): the /v1 calls' bodies and answers.
  playgroundEmail: {
    method: 'POST',
    path: '/playground/email',
    body: shape<EmailValidateRequest>(),
    response: shape<EmailResult>(),
  },
  playgroundPhone: {
    method: 'POST',
    path: '/playground/phone',
    body: shape<PhoneValidateRequest>(),
    response: shape<PhoneResult>(),
  },
  playgroundIp: {
    method: 'POST',
    path: '/playground/ip',
    body: shape<IpIntelRequest>(),
    response: shape<IpResult>(),
  },
  playgroundVerify: {
    method: 'POST',
    path: '/playground/verify',
    query: shape<{ explain?: boolean }>(),
    body: shape<VerifyRequest>(),
    response: shape<PlaygroundVerifyResult>(),
  },

  // Outcomes (console-feedback.controller.ts).
  reportOutcome: {
    method: 'POST',
    path: '/feedback',
    body: shape<FeedbackRequest>(),
    response: shape<FeedbackResult>(),
  },
  outcomeStats: { method: 'GET', path: '/feedback/stats', response: shape<FeedbackStats>() },
} as const satisfies Record<string, RouteSpec>;

export type ConsoleRoutes = typeof CONSOLE_ROUTES;
export type ConsoleRouteName = keyof ConsoleRoutes;

type Carried<S> = S extends Shape<infer T> ? T : never;

/** The answer of a route (`void` for 204). */
export type ConsoleResponse<N extends ConsoleRouteName> = Carried<ConsoleRoutes[N]['response']>;

/** The `:name` parameters of a path. */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** What one call of a route sends: its path parameters, query and body, each only if it has one. */
export type ConsoleInput<N extends ConsoleRouteName> = ([
  ParamNames<ConsoleRoutes[N]['path']>,
] extends [never]
  ? unknown
  : { params: Record<ParamNames<ConsoleRoutes[N]['path']>, string> }) &
  (ConsoleRoutes[N] extends { query: infer Q } ? { query?: Carried<Q> } : unknown) &
  (ConsoleRoutes[N] extends { body: infer B } ? { body: Carried<B> } : unknown);

/** The arguments after the route's name: none, or its input (optional when all of it is). */
export type ConsoleArgs<N extends ConsoleRouteName> = [keyof ConsoleInput<N>] extends [never]
  ? []
  : Partial<ConsoleInput<N>> extends ConsoleInput<N>
    ? [input?: ConsoleInput<N>]
    : [input: ConsoleInput<N>];

/** The method, address (below the origin) and body of one call of a route. */
export function consoleRequest<N extends ConsoleRouteName>(
  name: N,
  ...[input]: ConsoleArgs<N>
): { method: ConsoleMethod; url: string; body: unknown } {
  const route: RouteSpec = CONSOLE_ROUTES[name];
  const { params, query, body } = (input ?? {}) as {
    params?: Record<string, string>;
    query?: Record<string, string | number | boolean | undefined>;
    body?: unknown;
  };
  const path = route.path.replace(/:(\w+)/g, (_, param: string) =>
    encodeURIComponent(params?.[param] ?? ''),
  );
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {}))
    if (value !== undefined) search.set(key, String(value));
  const text = search.toString();
  return { method: route.method, url: `${CONSOLE_API}${path}${text ? `?${text}` : ''}`, body };
}
