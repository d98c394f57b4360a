export { bodyValidator, issuePath, type BodyValidator } from './validate.js'
export { defineFormat, shown, REGEX_FORMAT, type FormatCheck } from './formats.js'
export { type RequestBodies, type RequestBody } from './bodies.js'
