import { Global, Module, type DynamicModule } from '@nestjs/common';
import { createTestEngines } from '@verity/validation';
import {
  EMAIL_ENGINE,
  ENGINES,
  IP_ENGINE,
  PHONE_ENGINE,
  TEST_ENGINES,
  type Engines,
} from './engines.tokens';
import { SmtpProbeWiring } from './smtp-probe.wiring';

@Global()
@Module({})
export class EnginesModule {
  static forRoot(engines: Engines): DynamicModule {
    return {
      module: EnginesModule,
      providers: [
        { provide: EMAIL_ENGINE, useValue: engines.email },
        { provide: PHONE_ENGINE, useValue: engines.phone },
        { provide: IP_ENGINE, useValue: engines.ip },
        { provide: ENGINES, useValue: engines },
        { provide: TEST_ENGINES, useValue: createTestEngines(engines) },
        SmtpProbeWiring,
      ],
      exports: [EMAIL_ENGINE, PHONE_ENGINE, IP_ENGINE, ENGINES, TEST_ENGINES],
    };
  }
}
