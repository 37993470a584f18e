// `npm run figures`: the size figures of the code (docs/codebase-figures.md). Walks src/ and, for the files that are
// not tests (*.test.ts(x), src/**/test/, *.test-fixtures / test-fixtures.ts), reports: files over 500 lines, functions
// (declarations, function expressions, arrow functions, methods, accessors, constructors) over 80 and over 150 lines
// by their line span, and lines over 160 characters. `--json` prints the same as JSON; `--all` lists every long
// function, not only those over 150 lines.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const root = new URL('..', import.meta.url).pathname;
const srcDir = join(root, 'src');
const FILE_LINES = 500;
const FUNCTION_LINES = [80, 150];
const LINE_CHARS = 160;

const isTest = (path) => /\.test\.tsx?$/.test(path) || /(^|\/)test\//.test(path) || /(^|\/)test-fixtures\.ts$/.test(path);

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return walk(path);
    return /\.(ts|tsx|mts|cts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** A readable name for a function node: its own name, or the variable, property or call it stands in. */
function nameOf(node, file) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name) return node.name.getText(file);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText(file);
  if (ts.isCallExpression(parent)) {
    const callee = parent.expression.getText(file);
    return `(callback of ${callee.length > 40 ? `${callee.slice(0, 40)}…` : callee})`;
  }
  if (ts.isExportAssignment(parent)) return '(default export)';
  return '(anonymous)';
}

const files = walk(srcDir)
  .map((path) => relative(root, path))
  .filter((path) => !isTest(path))
  .sort();
const longFiles = [];
const functions = [];
let longLines = 0;
const longLinesByFile = new Map();
let totalLines = 0;

for (const path of files) {
  const text = readFileSync(join(root, path), 'utf8');
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  totalLines += lines.length;
  if (lines.length > FILE_LINES) longFiles.push({ path, lines: lines.length });
  const wide = lines.filter((line) => line.length > LINE_CHARS).length;
  if (wide > 0) longLinesByFile.set(path, wide);
  longLines += wide;

  const kind = path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
      const end = file.getLineAndCharacterOfPosition(node.getEnd()).line + 1;
      const span = end - start + 1;
      if (span > FUNCTION_LINES[0]) functions.push({ path, name: nameOf(node, file), start, end, lines: span });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
}

longFiles.sort((a, b) => b.lines - a.lines);
functions.sort((a, b) => b.lines - a.lines);
const over = (limit) => functions.filter((f) => f.lines > limit);
const figures = {
  files: files.length,
  lines: totalLines,
  filesOver500Lines: longFiles,
  functionsOver80Lines: over(FUNCTION_LINES[0]).length,
  functionsOver150Lines: over(FUNCTION_LINES[1]).length,
  linesOver160Chars: longLines,
  filesWithLinesOver160Chars: longLinesByFile.size,
  functions: process.argv.includes('--all') ? functions : over(FUNCTION_LINES[1]),
};

if (process.argv.includes('--json')) {
  console.log(JSON.stringify(figures, null, 2));
} else {
  console.log(`Non-test source files in src/: ${figures.files} (${figures.lines} lines)`);
  console.log(`Files over ${FILE_LINES} lines: ${longFiles.length}`);
  for (const f of longFiles) console.log(`  ${String(f.lines).padStart(5)}  ${f.path}`);
  console.log(`Functions over ${FUNCTION_LINES[0]} lines: ${figures.functionsOver80Lines}`);
  console.log(`Functions over ${FUNCTION_LINES[1]} lines: ${figures.functionsOver150Lines}`);
  for (const f of figures.functions) console.log(`  ${String(f.lines).padStart(5)}  ${f.path}:${f.start}-${f.end}  ${f.name}`);
  console.log(`Lines over ${LINE_CHARS} characters: ${longLines} (in ${longLinesByFile.size} files)`);
  const worst = [...longLinesByFile].sort((a, b) => b[1] - a[1]).slice(0, 10);
  for (const [path, count] of worst) console.log(`  ${String(count).padStart(5)}  ${path}`);
}
