export { configSchema, type AppConfig } from './config.schema';
export { loadConfig, ConfigError } from './load-config';
export * from './app-config.token';
