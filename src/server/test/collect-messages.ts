/**
 * Lists the English messages a user can be shown from outside the SPA's own catalogs (decision 065): every
 * sentence of the zod contracts (`src/**\/*.schema.ts`, the global zod messages) and every message literal the
 * server sends (errors, refusals, `message` of an answer). Node only: read by the catalog test.
 * A template literal becomes a pattern: `${entity} not found` -> "{{entity}} not found".
 */
import ts from 'typescript';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else out.push(path);
  }
  return out;
}

/** Properties whose text is not shown to a user as a message (examples, CSV headers, the API document's prose). */
const NOT_MESSAGES = new Set(['example', 'examples', 'aliases', 'key', 'label', 'description', 'summary', 'title', 'name', 'tags', 'hint']);
/** Files whose texts never reach a user's screen as messages: the API document's prose, the development response check; the PDF and mail dictionaries (their own tests). */
const NOT_SENT = ['server/plugins/openapi-document.ts', 'server/plugins/response-check.ts', 'server/pdf-labels.ts', 'server/mail-language.ts'];
/** Files whose constants are data (CSV headers), not messages: only their refusals count. */
const ERRORS_ONLY = ['data-transfer/export.service.ts'];
/** Calls whose string arguments are not messages. */
const NOT_MESSAGE_CALLS =
  /(^|\.)(describe|meta|fileAnswer|log|info|warn|debug|trace|fatal|error|startsWith|endsWith|includes|test|match|replace|split|join|get|set|has|query|execute|sql|raw|header|type|toBe|log)$/;
/** Calls and constructors whose string arguments are messages a client receives. */
const ERROR_CALLS = /(^|\.)(HttpError|notFound|badRequest|conflict|forbidden|unauthorized|StaleEdit|tooLarge|unsupported|refuse|fail|problem|issue)$/;

/** The SPA's own English toasts written as literals: shown through the same dictionary (notify.ts). */
const UI_MESSAGE_CALLS = /(^|\.)(notifySuccess|notifyError|errorMessage|failure|ApiError)$/;
const UI_MESSAGE_PROPS = new Set(['success', 'failure']);

const sentence = (text: string) => /^[A-Z]/.test(text) && /[a-z]{2}/.test(text) && /\s/.test(text);

function textOf(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) {
    return node.head.text + node.templateSpans.map((s) => `{{${placeholder(s.expression)}}}${s.literal.text}`).join('');
  }
  return undefined;
}

function placeholder(expr: ts.Expression): string {
  const text = expr.getText().replace(/\(.*$/s, '');
  const last =
    text
      .split(/[^\w$]+/)
      .filter(Boolean)
      .pop() ?? 'value';
  return last.replace(/^\$/, '');
}

function propertyName(node: ts.Node): string | undefined {
  if (ts.isPropertyAssignment(node) && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name))) return node.name.text;
  return undefined;
}

function calleeName(call: ts.CallExpression | ts.NewExpression): string {
  return call.expression.getText().replace(/\s+/g, '');
}

/** The context of a literal: climbs through conditionals, arrays, parentheses and `??`/`||`. */
function context(node: ts.Node): ts.Node {
  let n = node.parent;
  while (
    n &&
    (ts.isConditionalExpression(n) ||
      ts.isParenthesizedExpression(n) ||
      ts.isArrayLiteralExpression(n) ||
      ts.isAsExpression(n) ||
      (ts.isBinaryExpression(n) && [ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken].includes(n.operatorToken.kind)))
  )
    n = n.parent;
  return n;
}

function insideUpperConst(node: ts.Node): boolean {
  for (let n: ts.Node | undefined = node; n; n = n.parent) {
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name)) return /^[A-Z][A-Z0-9_]+$/.test(n.name.text);
    if (ts.isFunctionLike(n)) return false;
  }
  return false;
}

export interface CollectedMessage {
  text: string;
  file: string;
}

/** `root` is the repository; returns each message once (the first file that has it). */
export function collectMessages(root: string): CollectedMessage[] {
  const src = join(root, 'src');
  const all = walk(src).filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$|\.seed\.ts$|test-fixtures\.ts$|\.d\.ts$/.test(f) && !/\/(test|seed)\//.test(f));
  const isUi = (f: string) => /\/ui\/|src\/web\//.test(f) && !/src\/web\/i18n\//.test(f);
  const files = all.filter((f) => isUi(f) || (f.endsWith('.ts') && !/src\/(web|portal)\//.test(f)));
  const found = new Map<string, string>();
  for (const file of files) {
    const rel = relative(root, file);
    const ui = isUi(file);
    const schema = !ui && /\.schema\.ts$|zod-messages\.ts$|shared\/validation\.ts$/.test(file);
    const server = !ui && /src\/server\/|\.service\.ts$|\.routes\.ts$|src\/features\/.+\.ts$/.test(file) && !schema;
    if ((!schema && !server && !ui) || NOT_SENT.some((f) => rel.endsWith(f))) continue;
    const errorsOnly = ERRORS_ONLY.some((f) => rel.endsWith(f));
    const source = ts.createSourceFile(
      file,
      readFileSync(file, 'utf8'),
      ts.ScriptTarget.Latest,
      true,
      file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
    );
    const visit = (node: ts.Node) => {
      const text = textOf(node);
      if (text !== undefined && sentence(text.replace(/\{\{\w+\}\}/g, 'X'))) {
        const ctx = context(node);
        const prop = propertyName(ctx);
        const call = ts.isCallExpression(ctx) || ts.isNewExpression(ctx) ? calleeName(ctx) : undefined;
        let keep: boolean;
        if (ts.isImportDeclaration(ctx) || ts.isExportDeclaration(ctx)) keep = false;
        else if (prop && NOT_MESSAGES.has(prop)) keep = false;
        else if (call && NOT_MESSAGE_CALLS.test(call) && !ERROR_CALLS.test(call)) keep = false;
        else if (ui) keep = (call !== undefined && UI_MESSAGE_CALLS.test(call)) || (prop !== undefined && UI_MESSAGE_PROPS.has(prop));
        else if (schema) keep = true;
        else
          keep =
            (call !== undefined && ERROR_CALLS.test(call)) ||
            prop === 'message' ||
            prop === 'error' ||
            (!errorsOnly && insideUpperConst(node)) ||
            ts.isThrowStatement(ctx);
        if (keep && !found.has(text)) found.set(text, rel);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return [...found].map(([text, file]) => ({ text, file })).sort((a, b) => a.file.localeCompare(b.file) || a.text.localeCompare(b.text));
}
