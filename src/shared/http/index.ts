export { readBody, readJson, readJsonObject, isJsonContentType } from './body.js'
export { sendJson, sendEmpty, sendError } from './respond.js'
export { negotiate } from './accept.js'
export { Router, type RouteHandler, type RouteMatch } from './router.js'
