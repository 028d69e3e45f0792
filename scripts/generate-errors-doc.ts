// Writes docs/errors.md from the error registry: `npm run docs:errors`.
import { writeFileSync } from 'node:fs';
import { renderErrorsDoc } from '../src/http/errors-doc.js';

writeFileSync(new URL('../docs/errors.md', import.meta.url), renderErrorsDoc());
console.log('docs/errors.md written');
