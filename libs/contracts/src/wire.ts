// The dependency-free part of the contract: plain types, constants and the webhook signature
// scheme. The client SDK (libs/client) compiles against this entry only, so its published
// package carries a copy of these files and nothing that needs zod or the monorepo.
export * from './results';
export * from './mailbox';
export * from './batch';
export * from './credits';
export * from './account';
export * from './webhook-signature';
export * from './feedback';
