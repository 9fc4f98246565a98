import { Global, Module, type DynamicModule } from '@nestjs/common';
import { EMAIL_ENGINE, ENGINES, IP_ENGINE, PHONE_ENGINE, type Engines } from './engines.tokens';

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
      ],
      exports: [EMAIL_ENGINE, PHONE_ENGINE, IP_ENGINE, ENGINES],
    };
  }
}
