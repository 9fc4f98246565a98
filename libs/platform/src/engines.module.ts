import { Global, Module, type DynamicModule } from '@nestjs/common';
import {
  EMAIL_ENGINE,
  IP_ENGINE,
  PHONE_ENGINE,
  type EmailEnginePort,
  type IpEnginePort,
  type PhoneEnginePort,
} from './engines.tokens';

/** The three validation engines of a process, built once by the composition root. */
export interface Engines {
  email: EmailEnginePort;
  phone: PhoneEnginePort;
  ip: IpEnginePort;
}

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
      ],
      exports: [EMAIL_ENGINE, PHONE_ENGINE, IP_ENGINE],
    };
  }
}
