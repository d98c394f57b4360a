/** Path lookup over one snapshot: unicast paths hop by hop, host to gateway, the graph answer of `POST graphs`. */
export { lookupPath, SourceNotFound, MAX_BRANCHES } from './walk.js'
export { hostToGateway } from './host-gateway.js'
export { pathGraph, type PacketOptions } from './graph.js'
export { GraphRequest, parseGraphRequest, type GraphAsk } from './request.js'
export { SnapshotData } from './snapshot-data.js'
export { END_REASONS, type Branch, type EndReason, type Hop, type PathQuery, type PathResult } from './types.js'
export { topologyGraph } from './topology.js'
