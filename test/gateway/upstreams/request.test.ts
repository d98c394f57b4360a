import t from 'tap'
import fc from 'fast-check'
import { createRequire } from 'node:module'
import { parse as parseUrl } from 'node:url'
import { headerList, outgoingPath } from '../../../src/gateway/upstreams/request.js'

const require = createRequire(import.meta.url)
const common = require('http-proxy/lib/http-proxy/common') as { urlJoin(...parts: string[]): string }

/** The path http-proxy's stream pass sends to a target whose path is `/` (or the error it throws). */
function httpProxyPath(url: string): string {
  try {
    return common.urlJoin('/', parseUrl(url).path ?? '')
  } catch (err) {
    return `throws ${(err as Error).message}`
  }
}

function leanPath(url: string): string {
  try {
    return outgoingPath(url)
  } catch (err) {
    return `throws ${(err as Error).message}`
  }
}

t.test('the lean request sends the path http-proxy would', async (t) => {
  for (const url of ['/api/snapshots', '/api/snapshots?a=1&b=2', '/api/v6.0/devices?x=a//b', '//api//x?y=//z', '/api/x?q="{a|b}"', "/a'b^c`d<e>", 'api/x', '/a%20b?c%2Fd', '/api/x?', '', '//%@!'])
    t.equal(leanPath(url), httpProxyPath(url), url)
  fc.assert(
    fc.property(fc.stringMatching(/^\/[!-~]{0,30}$/), (url) => leanPath(url) === httpProxyPath(url)),
    { numRuns: 5000 },
  )
})

t.test('headers as one list: every name with its value, absent ones left out', async (t) => {
  t.same(headerList({ host: 'up', 'x-a': '1', cookie: undefined, 'x-list': ['a', 'b'] }), ['host', 'up', 'x-a', '1', 'x-list', ['a', 'b']])
})
