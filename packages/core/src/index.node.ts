/**
 * `@vita-docs/core/node`: Node implementations of core's ports. Needs `sharp` installed (an
 * optional peer dependency of this package).
 */
export { createSharpRaster } from './pdf/raster.node.js';
export { createNodeReader } from './reading/reader.node.js';
