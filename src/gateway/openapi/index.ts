/** The API described: the OpenAPI 3.1 document and the explorer page that reads it. */
export { buildDocument, operationsWithoutBodySchema, REQUEST_BODIES, type DocumentOptions } from './document.js'
export { openApiHandlers, type OpenApiDeps } from './handler.js'
