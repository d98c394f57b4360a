/** Kept comparisons answer as the join of the two snapshots, on PostgreSQL (`kept-comparison.ts`). */
import t from 'tap'
import { keptComparisonsAnswerAsTheJoin } from './kept-comparison.js'

t.test('kept comparisons answer as the join on postgres', (t) => keptComparisonsAnswerAsTheJoin(t, 'postgres'))
