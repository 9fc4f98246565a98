// Test keys' engines: offline parts of the live engines plus the magic inputs (docs/test-mode.md).
export {
  MAGIC_EMAILS,
  MAGIC_IPS,
  MAGIC_PHONES,
  magicEmail,
  magicIp,
  isMagicInput,
  magicPhone,
  type MagicEmail,
  type MagicIp,
  type MagicPhone,
} from './magic-inputs';
export { createTestEngines, type TestEngineSources, type TestEngines } from './test-engines';
