// Fails when the imports of src/ form a circle, and prints each circle. Every relative import
// counts: `import`/`export ... from` (type-only ones too) and `import()` (loading a module
// lazily still depends on it). Biome's noImportCycles runs in the same lint; it does not see
// a circle closed by a type imported through an interface, which this walk does.
// It also fails when the feature modules (the folders of a `modules/` folder) form a loop, tests
// left out: files can avoid a circle while their modules still depend on each other, and then
// the next front-door export closes one (docs/architecture.md, "The dependency rule").
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

// Tarjan's strongly connected components: any component of more than one node is a circle.
function componentsOf(graph) {
  let index = 0;
  const order = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (v) => {
    order.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)) {
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
      if (component.length > 1) found.push(component);
    }
  };
  for (const node of graph.keys()) if (!order.has(node)) visit(node);
  return found;
}
const circles = componentsOf(edges);

// The module of a file: `<root>/.../modules/<name>/...`, tests excluded.
const moduleOf = (file) => {
  if (/\.test\.tsx?$/.test(file)) return null;
  const match = /[\\/]modules[\\/]([^\\/]+)[\\/]/.exec(relative(process.cwd(), file));
  return match ? match[1] : null;
};
const moduleEdges = new Map();
for (const [from, tos] of edges) {
  const a = moduleOf(from);
  if (!a) continue;
  if (!moduleEdges.has(a)) moduleEdges.set(a, new Set());
  for (const to of tos) {
    const b = moduleOf(to);
    if (b && b !== a) {
      moduleEdges.get(a).add(b);
      if (!moduleEdges.has(b)) moduleEdges.set(b, new Set());
    }
  }
}
const loops = componentsOf(moduleEdges);

if (circles.length) {
  console.error(`${circles.length} import circle(s) under ${ROOTS.join(', ')}:`);
  for (const circle of circles)
    console.error(
      `  ${circle
        .map((f) => relative(process.cwd(), f))
        .sort()
        .join('\n    ')}`,
    );
}
if (loops.length) {
  console.error(`${loops.length} loop(s) among modules under ${ROOTS.join(', ')}:`);
  for (const loop of loops) console.error(`  ${loop.sort().join(', ')}`);
}
if (circles.length || loops.length) process.exit(1);
console.log(
  `no import circles among ${files.length} files and no loop among ${moduleEdges.size} modules under ${ROOTS.join(', ')}`,
);
