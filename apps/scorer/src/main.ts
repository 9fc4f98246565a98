import 'reflect-metadata';
import { runWorker } from '@verity/batch';
import { ScorerModule } from './scorer.module';

/** The scorer deployable (scale it out): `node dist/apps/scorer/src/main.js`. */
runWorker('verity-scorer', [ScorerModule], true);
