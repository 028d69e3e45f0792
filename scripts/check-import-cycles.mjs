// Fails when the imports of src/ form a circle, and prints each circle. Every relative import
// counts: `import`/`export ... from` (type-only ones too) and `import()` (loading a module
// lazily still depends on it). Biome's noImportCycles runs in the same lint; it does not see
// a circle closed by a type imported through an interface, which this walk does.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOTS = process.argv.slice(2).length ? process.argv.slice(2) : ['src'];
const FROM = /^\s*(?:import|export)\s[^'";]*?from\s*['"](\.{1,2}\/[^'"]+)['"]/gm;
const LAZY = /\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (/\.(ts|tsx|mts)$/.test(name) && !/\.d\.ts$/.test(name)) files.push(resolve(path));
  }
};
for (const root of ROOTS) walk(root);
const known = new Set(files);

const target = (from, spec) => {
  const base = resolve(dirname(from), spec);
  for (const candidate of [
    base.replace(/\.m?js$/, '.ts'),
    base.replace(/\.js$/, '.tsx'),
    base.replace(/\.mjs$/, '.mts'),
    base,
    `${base}.ts`,
    join(base, 'index.ts'),
  ]) {
    if (known.has(candidate)) return candidate;
  }
  return null;
};

const edges = new Map(files.map((f) => [f, new Set()]));
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  for (const match of [...text.matchAll(FROM), ...text.matchAll(LAZY)]) {
    const to = target(file, match[1]);
    if (to && to !== file) edges.get(file).add(to);
  }
}

// Tarjan's strongly connected components: any component of more than one file is a circle.
let index = 0;
const order = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const circles = [];
const visit = (v) => {
  order.set(v, index);
  low.set(v, index++);
  stack.push(v);
  onStack.add(v);
  for (const w of edges.get(v)) {
    if (!order.has(w)) {
      visit(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), order.get(w)));
  }
  if (low.get(v) === order.get(v)) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) circles.push(component);
  }
};
for (const file of files) if (!order.has(file)) visit(file);

if (circles.length) {
  console.error(`${circles.length} import circle(s) under ${ROOTS.join(', ')}:`);
  for (const circle of circles)
    console.error(
      `  ${circle
        .map((f) => relative(process.cwd(), f))
        .sort()
        .join('\n    ')}`,
    );
  process.exit(1);
}
console.log(`no import circles among ${files.length} files under ${ROOTS.join(', ')}`);
