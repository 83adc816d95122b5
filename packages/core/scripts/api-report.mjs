// Compares the built declarations of every entry point (package.json's `exports`) with its report in `api/` (`--update`
// rewrites the reports instead): what consumers of the package can import changes only on purpose.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const update = process.argv.includes('--update');
/** Every entry point of package.json's `exports` with declarations: `.` is `index`, `./node` is `node`. */
const exports = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).exports;
const entries = Object.fromEntries(
  Object.entries(exports)
    .filter(([, target]) => typeof target === 'object' && target.types)
    .map(([key, target]) => [key === '.' ? 'index' : key.slice(2), target.types.replace(/^\.\//, '')]),
);

let changed = 0;
for (const [name, entry] of Object.entries(entries)) {
  const file = ExtractorConfig.loadFile(path.join(root, 'api-extractor.json'));
  file.mainEntryPointFilePath = path.join(root, entry);
  file.apiReport = { ...file.apiReport, reportFileName: `${name}.api.md` };
  const config = ExtractorConfig.prepare({
    configObject: file,
    configObjectFullPath: path.join(root, 'api-extractor.json'),
    packageJsonFullPath: path.join(root, 'package.json'),
  });
  const result = Extractor.invoke(config, {
    localBuild: update,
    showVerboseMessages: false,
    messageCallback: (message) => {
      // Warnings about the declarations themselves are not this check's business; the report is.
      if (message.category !== 'Extractor' || message.messageId !== 'ae-api-report-changed')
        message.handled = true;
    },
  });
  if (result.apiReportChanged) changed += 1;
  if (!result.succeeded && !update)
    console.error(`api/${name}.api.md does not match the built declarations of ${entry}`);
}
// A report whose entry point is gone describes nothing a consumer can import.
const stale = readdirSync(path.join(root, 'api')).filter((f) => !(f.replace(/\.api\.md$/, '') in entries));
for (const file of stale)
  console.error(`api/${file} has no entry point in package.json's exports: delete it`);
if (stale.length > 0) process.exitCode = 1;
if (changed > 0 && !update) {
  console.error(
    `${changed} API report(s) changed: run \`pnpm --filter @vita-docs/core api:update\` and commit api/ if the change is meant.`,
  );
  process.exit(1);
}
if (update) console.log(changed > 0 ? `${changed} API report(s) updated in api/` : 'API reports unchanged');
