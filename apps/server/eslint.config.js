import { vitaEslint } from '@vita-docs/eslint-config';

export default vitaEslint({ dirname: import.meta.dirname, layer: 'server', envModule: 'src/env.ts' });
