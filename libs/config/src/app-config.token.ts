/** Nest injection token for the validated AppConfig. */
export const APP_CONFIG = Symbol.for('verity.app-config');
