/** A discovery's comparison is kept once, in the background, whoever asks meanwhile, on PostgreSQL (`query/keeping.ts`). */
import t from 'tap'
import { keptOnceInTheBackground } from './keeping.js'

t.test('comparisons kept once in the background on postgres', (t) => keptOnceInTheBackground(t, 'postgres'))
