/** A discovery's comparison is kept once, in the background, whoever asks meanwhile, on PGlite (`query/keeping.ts`). */
import t from 'tap'
import { keptOnceInTheBackground } from './keeping.js'

t.test('comparisons kept once in the background on pglite', (t) => keptOnceInTheBackground(t, 'pglite'))
