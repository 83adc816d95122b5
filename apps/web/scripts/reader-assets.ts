/**
 * Ships the document reader's files with the app, under /ocr/: tesseract.js's worker, its core (the
 * SIMD, LSTM-only build and its wasm), the English data and zxing-wasm's reader. The app serves them
 * itself, so reading fetches nothing from anywhere else; they are fetched the first time a document
 * is read and kept by the service worker (src/sw.ts), and are in no route's initial JS.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

/** The files and where they are served (paths under the app's root). */
function readerFiles(): Array<{ from: string; to: string }> {
  // Resolved from core, which depends on them.
  const require = createRequire(createRequire(import.meta.url).resolve('@vita-docs/core/package.json'));
  const dir = (pkg: string) => path.dirname(require.resolve(`${pkg}/package.json`));
  const tesseract = dir('tesseract.js');
  const core = path.dirname(
    createRequire(path.join(tesseract, 'package.json')).resolve('tesseract.js-core/package.json'),
  );
  return [
    { from: path.join(tesseract, 'dist/worker.min.js'), to: 'ocr/worker.min.js' },
    { from: path.join(core, 'tesseract-core-simd-lstm.js'), to: 'ocr/tesseract-core-simd-lstm.js' },
    { from: path.join(core, 'tesseract-core-simd-lstm.wasm'), to: 'ocr/tesseract-core-simd-lstm.wasm' },
    {
      from: path.join(dir('@tesseract.js-data/eng'), '4.0.0_best_int/eng.traineddata.gz'),
      // Served without `.gz`: the server's static files take `.gz` names as compressed copies of
      // others. The bytes stay gzip; tesseract.js unzips whatever starts with gzip's magic number.
      to: 'ocr/eng.traineddata',
    },
    {
      from: path.join(
        path.dirname(require.resolve(`${'zxing-wasm'}/reader`)),
        '../../reader/zxing_reader.wasm',
      ),
      to: 'ocr/zxing_reader.wasm',
    },
  ];
}

export function readerAssetsPlugin(): Plugin {
  return {
    name: 'vita-reader-assets',
    apply: 'build',
    generateBundle() {
      for (const { from, to } of readerFiles())
        this.emitFile({ type: 'asset', fileName: to, source: readFileSync(from) });
    },
  };
}
