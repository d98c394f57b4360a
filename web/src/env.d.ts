declare module '*.css'
// cytoscape-fcose ships no types: a cytoscape extension, registered with cytoscape.use()
declare module 'cytoscape-fcose' {
  const extension: cytoscape.Ext
  export default extension
}
