export { bodyValidator, issuePath, type BodyValidator } from './validate.js'
export { type RequestBodies, type RequestBody } from './bodies.js'
