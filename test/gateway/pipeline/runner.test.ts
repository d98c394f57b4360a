import t from 'tap'
import { DONE, runStages, stageNames, type Stage } from '../../../src/gateway/pipeline/runner.js'

interface Ctx {
  trail: string[]
}

const step = (name: string, result?: typeof DONE): Stage<Ctx> => ({
  name,
  run(ctx) {
    ctx.trail.push(name)
    return result
  },
})

t.test('runs every stage in order when all continue', async (t) => {
  const ctx: Ctx = { trail: [] }
  t.equal(await runStages([step('a'), step('b'), step('c')], ctx), null)
  t.same(ctx.trail, ['a', 'b', 'c'])
})

t.test('a stage returning DONE stops the pipeline and is named', async (t) => {
  const ctx: Ctx = { trail: [] }
  t.equal(await runStages([step('a'), step('b', DONE), step('c')], ctx), 'b')
  t.same(ctx.trail, ['a', 'b'])
})

t.test('async stages are awaited in order', async (t) => {
  const ctx: Ctx = { trail: [] }
  const slow: Stage<Ctx> = {
    name: 'slow',
    async run(c) {
      await new Promise((r) => setImmediate(r))
      c.trail.push('slow')
    },
  }
  await runStages([slow, step('after')], ctx)
  t.same(ctx.trail, ['slow', 'after'])
})

t.test('a throwing stage throws its error, tagged with the stage name; later stages do not run', async (t) => {
  const ctx: Ctx = { trail: [] }
  const boom: Stage<Ctx> = {
    name: 'boom',
    run() {
      throw new Error('no')
    },
  }
  const err = (() => {
    try {
      runStages([step('a'), boom, step('c')], ctx)
    } catch (e) {
      return e
    }
  })()
  t.equal((err as Error).message, 'no')
  t.equal((err as { stage?: string }).stage, 'boom')
  t.same(ctx.trail, ['a'])
})

t.test('synchronous stages answer at once: no promise, no microtask', async (t) => {
  const ctx: Ctx = { trail: [] }
  const r = runStages([step('a'), step('b', DONE)], ctx)
  t.equal(r, 'b', 'the answer itself, not a promise')
})

t.test('after an asynchronous stage the rest runs in order and a rejection is tagged', async (t) => {
  const ctx: Ctx = { trail: [] }
  const later: Stage<Ctx> = {
    name: 'later',
    run: (c) => Promise.resolve().then(() => void c.trail.push('later')),
  }
  const failing: Stage<Ctx> = { name: 'failing', run: () => Promise.reject(new Error('late')) }
  const r = runStages([step('a'), later, step('b'), failing, step('c')], ctx)
  t.ok(r instanceof Promise)
  const err = await Promise.resolve(r).catch((e: unknown) => e)
  t.equal((err as { stage?: string }).stage, 'failing')
  t.same(ctx.trail, ['a', 'later', 'b'])
})

t.test('stageNames lists the order', async (t) => {
  t.same(stageNames([step('x'), step('y')]), ['x', 'y'])
})
