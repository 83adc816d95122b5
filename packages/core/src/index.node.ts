/**
 * `@vita-docs/core/node`: Node implementations of core's ports. The raster needs `sharp` installed
 * (an optional peer dependency of this package); the reader only for barcodes in TIFF or WebP.
 */
export { createSharpRaster } from './pdf/raster.node.js';
export { createNodeReader, type NodeReaderOptions } from './reading/reader.node.js';
export { readWith, readingFromText } from './reading/reader.js';
export { recogniseForm } from './reading/forms.js';
export { taxYearOf } from './reading/year.js';
