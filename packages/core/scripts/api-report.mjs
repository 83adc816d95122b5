// Compares the built declarations of every entry point with its report in `api/` (`--update`
// rewrites the reports instead): what consumers of the package can import changes only on purpose.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const update = process.argv.includes('--update');
const entries = {
  index: 'dist/index.d.ts',
  testing: 'dist/testing/index.d.ts',
  browser: 'dist/browser/index.d.ts',
  node: 'dist/index.node.d.ts',
  cookies: 'dist/cookies.d.ts',
};

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
if (changed > 0 && !update) {
  console.error(
    `${changed} API report(s) changed: run \`pnpm --filter @vita-docs/core api:update\` and commit api/ if the change is meant.`,
  );
  process.exit(1);
}
if (update) console.log(changed > 0 ? `${changed} API report(s) updated in api/` : 'API reports unchanged');
