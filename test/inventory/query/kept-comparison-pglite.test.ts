/** Kept comparisons answer as the join of the two snapshots, on PGlite (`kept-comparison.ts`). */
import t from 'tap'
import { keptComparisonsAnswerAsTheJoin } from './kept-comparison.js'

t.test('kept comparisons answer as the join on pglite', (t) => keptComparisonsAnswerAsTheJoin(t, 'pglite'))
