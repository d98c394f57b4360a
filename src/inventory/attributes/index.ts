/** Device attributes (site, floor, ... per serial): global and per snapshot. */
export { ATTRIBUTE_NAME, parseDelete, parseList, parseOne, type AttributeInput, type AttributeSelector } from './input.js'
export { addGlobal, copyGlobalAttributes, copySnapshotAttributes, deleteAttributes, putAttributes, type AttributeRow, type AttributeScope } from './store.js'
