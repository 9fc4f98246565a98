/**
 * Decides whether a real-backend suite runs: skipped with a hint when its env var is unset,
 * but failing in CI (CI=true), where scripts/infra/up.sh always starts the services.
 */
export function backendGate(variable: string): { skip: string | false } {
  if (process.env[variable]) return { skip: false };
  if (process.env.CI === 'true') {
    throw new Error(`${variable} is not set in CI: run scripts/infra/up.sh and source env.sh`);
  }
  return { skip: `${variable} not set: run scripts/infra/up.sh and source scripts/infra/env.sh` };
}
