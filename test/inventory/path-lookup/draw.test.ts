/**
 * The drawing of a graph answer (draw.ts) holds whatever the network names things: markup,
 * quotes, control characters and lone surrogates in host, interface and site names come out as
 * text in an SVG a renderer still reads; a diagram too large to draw is a 422.
 */
import t from 'tap'
import { Resvg } from '@resvg/resvg-js'
import { drawGraph, MAX_DRAWN_NODES, xmlText } from '../../../src/inventory/path-lookup/draw.js'
import { pathSettings } from '../../../src/inventory/path-lookup/graph.js'
import { ApiError } from '../../../src/shared/errors.js'

const answer = (nodes: Array<Record<string, unknown>>, edges: Array<Record<string, unknown>> = []) => ({
  graphResult: { graphData: { nodes: Object.fromEntries(nodes.map((n) => [n.id, n])), edges: Object.fromEntries(edges.map((e) => [e.id, e])) }, settings: pathSettings(), boxLabels: {} },
})

t.test('network text is text', async (t) => {
  const hostile = '<script>alert("x")</script> & \u0000\u0007\ud800 ]]> \'x\''
  const svg = drawGraph(
    answer(
      [
        { id: 'device/a', label: hostile, type: '"><g onload="x', boxId: '</text><svg>' },
        { id: 'device/b', label: 'b', type: 'router', boxId: null },
      ],
      [{ id: 'e', source: 'device/a', target: 'device/b', direction: 'undirected', edgeSettingsId: 'x"/><script/>', labels: { source: [{ text: '<Gi0/1>' }], target: [{ text: 'a&b' }], center: [] } }],
    ),
    hostile,
  )
  t.notMatch(svg, '<script', 'no markup from the network')
  t.notOk([...svg].some((c) => c < ' ' && c !== '\n'), 'no control character')
  t.notMatch(svg, '\ud800', 'no lone surrogate')
  t.match(svg, '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp;')
  t.match(svg, '&lt;Gi0/1&gt;')
  const parsed = new Resvg(svg)
  t.ok(parsed.width > 0, 'the SVG still parses')
  t.equal(xmlText('a\tb\nc'), 'abc', 'controls dropped, labels stay on one line')
})

t.test('a diagram too large to draw is a 422 that says what to do', async (t) => {
  const nodes = Array.from({ length: MAX_DRAWN_NODES + 1 }, (_, i) => ({ id: `device/${i}`, label: `d${i}`, type: 'router', boxId: 'S' }))
  try {
    drawGraph(answer(nodes), 'big')
    t.fail('drawn')
  } catch (err) {
    t.ok(err instanceof ApiError)
    t.match((err as ApiError).status, 422)
    t.match(JSON.stringify((err as ApiError).errors ?? (err as Error).message), /name fewer sites/)
  }
  t.ok(drawGraph(answer(nodes.slice(0, MAX_DRAWN_NODES)), 'just fits').startsWith('<svg'), `${MAX_DRAWN_NODES} devices are drawn`)
})

t.test('graphs of every shape are drawn: sites of interleaved links, a device linked to itself', async (t) => {
  // dagre's compound layout throws on this one ("Not possible to find intersection inside of the rectangle")
  const n = 50
  const nodes = Array.from({ length: n }, (_, i) => ({ id: `device/${i}`, label: `d${i}`, type: 'switch', boxId: `S${i % 8}` }))
  const edges = Array.from({ length: n * 1.5 }, (_, i) => ({ id: `e${i}`, source: `device/${i % n}`, target: `device/${(i * 7 + 3) % n}`, direction: 'undirected', edgeSettingsId: 'x', labels: {} }))
  edges.push({ id: 'self', source: 'device/0', target: 'device/0', direction: 'undirected', edgeSettingsId: 'x', labels: {} })
  const svg = drawGraph(answer(nodes, edges), 'interleaved')
  t.equal(svg.match(/<g class="node">/g)?.length, n, 'every device')
  t.equal(svg.match(/<g class="edge">/g)?.length, edges.length, 'every link, the loop too')
  t.equal(svg.match(/<g class="site">/g)?.length, 8, 'every site framed')
  t.ok(new Resvg(svg).width > 0)
})
