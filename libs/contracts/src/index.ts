export * from './wire';
export * from './requests';
export * from './request-bodies';
export * from './responses';
export * from './openapi-components';
export * from './console';
export * from './feedback.schemas';
export * from './console-routes';
