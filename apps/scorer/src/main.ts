import 'reflect-metadata';
import { runWorker } from '@verity/batch';
import { ScorerModule } from './scorer.module';
import { SCORER_REPORT_ONLY } from './scorer.readiness';

/** The scorer deployable (scale it out): `node dist/apps/scorer/src/main.js`. */
runWorker('verity-scorer', [ScorerModule], true, SCORER_REPORT_ONLY);
