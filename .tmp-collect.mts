import ts from 'typescript';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
function walk(d: string, out: string[] = []) { for (const f of readdirSync(d)) { const p = join(d, f); if (statSync(p).isDirectory()) walk(p, out); else out.push(p); } return out; }
const files = walk('src').filter(f => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.includes('/ui/') && !f.startsWith('src/web') && !f.startsWith('src/portal') && !f.includes('/test/') && !f.includes('/seed/'));
const found = new Map<string, string>();
for (const f of files) {
  const src = ts.createSourceFile(f, readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true);
  const visit = (n: ts.Node) => {
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateExpression(n)) {
      let text: string;
      if (ts.isTemplateExpression(n)) { text = n.head.text + n.templateSpans.map(s => `{{${s.expression.getText().replace(/\W+/g,'_')}}}` + s.literal.text).join(''); }
      else text = n.text;
      if (/^[A-Z]/.test(text) && /\s/.test(text)) {
        const p = n.parent;
        if (ts.isImportDeclaration(p) || (ts.isCallExpression(p) && /describe|log\.|info|warn|error$|debug/.test(p.expression.getText()))) {} else found.set(text, f);
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(src);
}
console.log(found.size);
for (const [k, f] of found) console.log(f.padEnd(60), JSON.stringify(k));
