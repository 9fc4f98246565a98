export { configSchema, type AppConfig } from './config.schema';
export { loadConfig, withListenPort, ConfigError, type LoadConfigOptions } from './load-config';
export * from './app-config.token';
