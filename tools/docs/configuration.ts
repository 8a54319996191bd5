/**
 * The generated part of docs/configuration.md, by static analysis of the apps' config readers with
 * the TypeScript compiler API, joined with what each booted app really read (route-probe.ts):
 *
 * - every call whose first argument is a variable name (a string literal in capitals) and whose
 *   callee is an `EnvReader` method (`read.int('NAME', fallback, min, max)`, …) or libs/chain's local
 *   readers (`read('NAME') ?? fallback`, `integer('NAME', min, max, fallback)`): the name, its kind,
 *   its default as written in the code (a constant resolved to its value), its range, the doc
 *   comment of the field it fills;
 * - every `env['NAME']` / `env.NAME` read (the CLI's settings), and `env[name]` in a loop over a
 *   list of names (`for (const name of CHAIN_ENV_NAMES)`);
 * - every name a booted app read that the code spells elsewhere (passed to a shared reader, e.g.
 *   `readServiceBaseConfig(read, 'POOL_PORT', 8434)`), or, failing that, by no literal at all.
 *
 * An app is listed against a variable when it read the variable while it booted, or when it read
 * another variable of the same reader file (a read that only some settings reach), or when the
 * reader is the app's own file.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as ts from 'typescript';
import { REPO_ROOT } from '@rcs/testing';
import type { ProbeResult } from './route-probe';

const NAME = /^[A-Z][A-Z0-9_]*[A-Z0-9]$/;
const READER_METHODS = new Set(['string', 'optional', 'list', 'int', 'number', 'positiveNumber', 'bigint', 'bool', 'oneOf']);
/** The apps without an HTTP server, known by their folder only. */
const APP_OF_FOLDER: Record<string, string> = { cli: 'cli (`rcs`)' };

export interface EnvVariable {
  name: string;
  /** Repository path of the file reading it. */
  file: string;
  /** 1-based line of the read, and the first line of the top-level statement (function) holding it. */
  line: number;
  unit: number;
  kind: string;
  /** As written in the code, constants resolved; null when unset means unset. */
  fallback: string | null;
  range: string | null;
  description: string | null;
}

function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) {
        if (!['testing', 'test', 'node_modules', 'e2e'].includes(entry)) walk(path);
      } else if (entry.endsWith('.ts') && !entry.endsWith('.spec.ts') && !entry.endsWith('.int-spec.ts') && !entry.endsWith('.d.ts')) {
        files.push(path);
      }
    }
  };
  for (const top of ['apps', 'libs']) {
    for (const project of readdirSync(join(REPO_ROOT, top)).sort()) {
      const src = join(REPO_ROOT, top, project, 'src');
      if (existsDir(src)) walk(src);
    }
  }
  return files.sort();
}

function existsDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** `const X = ['A', 'B'] (as const)` of every scanned file: lists of names a loop may read. */
function nameLists(sources: ts.SourceFile[]): Map<string, string[]> {
  const lists = new Map<string, string[]>();
  for (const source of sources) {
    for (const statement of source.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      for (const declaration of statement.declarationList.declarations) {
        if (!ts.isIdentifier(declaration.name) || !declaration.initializer) continue;
        const init = ts.isAsExpression(declaration.initializer) ? declaration.initializer.expression : declaration.initializer;
        if (ts.isArrayLiteralExpression(init) && init.elements.length > 0 && init.elements.every((element) => ts.isStringLiteral(element))) {
          lists.set(declaration.name.text, init.elements.map((element) => (element as ts.StringLiteral).text));
        }
      }
    }
  }
  return lists;
}

/** `for (const name of LIST) … env[name]`: the list's names, when `node` reads the environment under the loop's variable. */
function loopNames(node: ts.ElementAccessExpression, lists: Map<string, string[]>): { list: string; names: string[] } | null {
  const key = node.argumentExpression;
  if (!ts.isIdentifier(key)) return null;
  for (let at: ts.Node | undefined = node.parent; at; at = at.parent) {
    if (ts.isForOfStatement(at) && ts.isVariableDeclarationList(at.initializer) && at.initializer.declarations.some((d) => ts.isIdentifier(d.name) && d.name.text === key.text)) {
      return ts.isIdentifier(at.expression) && lists.has(at.expression.text) ? { list: at.expression.text, names: lists.get(at.expression.text) ?? [] } : null;
    }
    if (ts.isFunctionLike(at)) return null;
  }
  return null;
}

/** `export const X = <literal or simple expression>` of every scanned file: the defaults written as constants. */
function constants(sources: ts.SourceFile[]): Map<string, string> {
  const values = new Map<string, string>();
  for (const source of sources) {
    for (const statement of source.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      for (const declaration of statement.declarationList.declarations) {
        if (!ts.isIdentifier(declaration.name) || !declaration.initializer) continue;
        const init = declaration.initializer;
        if (ts.isStringLiteral(init) || ts.isNumericLiteral(init) || ts.isBigIntLiteral(init) || ts.isPrefixUnaryExpression(init) || ts.isBinaryExpression(init)) {
          values.set(declaration.name.text, oneLine(init.getText(source)));
        }
      }
    }
  }
  return values;
}

function expressionText(node: ts.Expression, source: ts.SourceFile, values: Map<string, string>): string {
  if (ts.isIdentifier(node) && values.has(node.text)) return `${values.get(node.text)}`;
  return oneLine(node.getText(source));
}

/** Doc comments of the interface fields of a file, by field name. */
function fieldDocs(source: ts.SourceFile): Map<string, string> {
  const docs = new Map<string, string>();
  const visit = (node: ts.Node): void => {
    if (ts.isPropertySignature(node) && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name))) {
      const comment = ts
        .getJSDocCommentsAndTags(node)
        .map((doc) => (typeof doc.comment === 'string' ? doc.comment : ''))
        .join(' ');
      if (comment.trim()) docs.set(node.name.text, oneLine(comment));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return docs;
}

/** The name of the field a read fills: the nearest property assignment or variable around it. */
function fieldName(node: ts.Node): string | null {
  for (let at: ts.Node | undefined = node.parent; at; at = at.parent) {
    if ((ts.isPropertyAssignment(at) || ts.isVariableDeclaration(at)) && ts.isIdentifier(at.name)) return at.name.text;
    if (ts.isFunctionLike(at) || ts.isSourceFile(at)) return null;
  }
  return null;
}

/** `x ?? fallback` around a read: its fallback. */
function nullishFallback(node: ts.Node, source: ts.SourceFile, values: Map<string, string>): string | null {
  let at: ts.Node = node;
  while (ts.isPropertyAccessExpression(at.parent) || ts.isCallExpression(at.parent) || ts.isNonNullExpression(at.parent)) {
    if (ts.isCallExpression(at.parent) && at.parent.expression !== at) break;
    at = at.parent;
  }
  const parent = at.parent;
  if (parent && ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken && parent.left === at) {
    return expressionText(parent.right, source, values);
  }
  return null;
}

function readOf(call: ts.CallExpression, source: ts.SourceFile, values: Map<string, string>, docs: Map<string, string>, file: string): EnvVariable | null {
  const [first, ...rest] = call.arguments;
  if (!first || !ts.isStringLiteral(first) || !NAME.test(first.text)) return null;
  const callee = call.expression;
  const method = ts.isPropertyAccessExpression(callee) ? callee.name.text : ts.isIdentifier(callee) ? callee.text : null;
  const text = (node: ts.Expression | undefined): string | null => (node ? expressionText(node, source, values) : null);
  const field = fieldName(call);
  const description = field ? (docs.get(field) ?? null) : null;
  const base = { name: first.text, file, line: lineOf(call, source), unit: unitOf(call, source), description };
  if (method !== null && ts.isPropertyAccessExpression(callee) && READER_METHODS.has(method)) {
    switch (method) {
      case 'string':
      case 'bool':
      case 'bigint':
      case 'positiveNumber':
        return { ...base, kind: method === 'positiveNumber' ? 'number > 0' : method, fallback: text(rest[0]), range: null };
      case 'int':
      case 'number':
        return { ...base, kind: method === 'int' ? 'integer' : 'number', fallback: text(rest[0]), range: `${text(rest[1])} … ${text(rest[2])}` };
      case 'oneOf':
        return { ...base, kind: 'one of', fallback: text(rest[1]), range: text(rest[0]) };
      case 'list':
        return { ...base, kind: 'comma-separated list', fallback: null, range: null };
      default:
        return { ...base, kind: 'string', fallback: nullishFallback(call, source, values), range: null };
    }
  }
  // libs/chain's own readers: `read('NAME') ?? fallback` and `integer('NAME', min, max, fallback?)`.
  if (method === 'read' && ts.isIdentifier(callee)) return { ...base, kind: 'string', fallback: nullishFallback(call, source, values), range: null };
  if (method === 'integer' && ts.isIdentifier(callee)) return { ...base, kind: 'integer', fallback: text(rest[2]), range: `${text(rest[0])} … ${text(rest[1])}` };
  return null;
}

const lineOf = (node: ts.Node, source: ts.SourceFile): number => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;

/** The first line of the top-level statement holding `node`: the unit of code an app reaches or not. */
function unitOf(node: ts.Node, source: ts.SourceFile): number {
  let at = node;
  while (at.parent && !ts.isSourceFile(at.parent)) at = at.parent;
  return lineOf(at, source);
}

interface Literal {
  file: string;
  line: number;
  /** How the code uses the name: `via readServiceBaseConfig()` (a call's argument) or `listed in GIT_HOST_VARIABLES`. */
  use: string;
  /** The argument after it, when it is a call's argument (a shared reader's default). */
  next: string | null;
}

interface Scan {
  reads: EnvVariable[];
  /** Where each string literal that looks like a variable name appears. */
  literals: Map<string, Literal[]>;
  /** Per file, the first lines of its top-level statements, ascending. */
  units: Map<string, number[]>;
}

function literalUse(node: ts.StringLiteral): string {
  const parent = node.parent;
  if (ts.isCallExpression(parent)) {
    const callee = parent.expression;
    return `via ${ts.isPropertyAccessExpression(callee) ? callee.name.text : callee.getText()}()`;
  }
  if (ts.isParameter(parent) && ts.isIdentifier(parent.name)) {
    const fn = parent.parent;
    const fnName = (ts.isFunctionDeclaration(fn) || ts.isMethodDeclaration(fn)) && fn.name ? fn.name.getText() : 'its function';
    return `default of ${fnName}(${parent.name.text})`;
  }
  for (let at: ts.Node | undefined = parent; at; at = at.parent) {
    if (ts.isVariableDeclaration(at) && ts.isIdentifier(at.name)) return `listed in ${at.name.text}`;
    if (ts.isPropertyAssignment(at) && ts.isIdentifier(at.name)) return `as ${at.name.text}`;
  }
  return 'named in the code';
}

function scan(): Scan {
  const files = sourceFiles();
  const sources = files.map((file) => ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true));
  const values = constants(sources);
  const lists = nameLists(sources);
  const reads: EnvVariable[] = [];
  const literals = new Map<string, Literal[]>();
  const units = new Map<string, number[]>();
  for (const source of sources) {
    const file = relative(REPO_ROOT, source.fileName).split('\\').join('/');
    units.set(file, source.statements.map((statement) => lineOf(statement, source)));
    const docs = fieldDocs(source);
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node)) {
        const read = readOf(node, source, values, docs, file);
        if (read) reads.push(read);
      }
      if (ts.isStringLiteral(node) && /^[A-Za-z][A-Za-z0-9_]*$/.test(node.text)) {
        const next = ts.isCallExpression(node.parent) ? node.parent.arguments[node.parent.arguments.indexOf(node) + 1] : undefined;
        const entry = { file, line: lineOf(node, source), use: literalUse(node), next: next ? expressionText(next, source, values) : null };
        literals.set(node.text, [...(literals.get(node.text) ?? []), entry]);
      }
      // `env['NAME']` and `env.NAME`: a direct read of an environment object.
      const envRead =
        ts.isElementAccessExpression(node) && ts.isIdentifier(node.expression) && /env$/i.test(node.expression.text) && ts.isStringLiteral(node.argumentExpression) && NAME.test(node.argumentExpression.text)
          && !isAssigned(node) && !ts.isDeleteExpression(node.parent)
          ? node.argumentExpression.text
          : ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && /^env$/.test(node.expression.text) && NAME.test(node.name.text) && !isAssigned(node)
            ? node.name.text
            : null;
      const looped = ts.isElementAccessExpression(node) && ts.isIdentifier(node.expression) && /env$/i.test(node.expression.text) ? loopNames(node, lists) : null;
      for (const name of looped?.names ?? []) {
        reads.push({ name, file, line: lineOf(node, source), unit: unitOf(node, source), kind: `listed in ${looped?.list}`, fallback: null, range: null, description: null });
      }
      if (envRead !== null) {
        const field = fieldName(node);
        reads.push({ name: envRead, file, line: lineOf(node, source), unit: unitOf(node, source), kind: 'string', fallback: null, range: null, description: field ? (docs.get(field) ?? null) : null });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { reads, literals, units };
}

function isAssigned(node: ts.Node): boolean {
  return ts.isBinaryExpression(node.parent) && node.parent.left === node && node.parent.operatorToken.kind === ts.SyntaxKind.EqualsToken;
}

/** The app a repository file belongs to, or null for a library. */
function appOfFile(file: string): string | null {
  const match = /^apps\/([^/]+)\//.exec(file);
  return match ? (APP_OF_FOLDER[match[1]] ?? match[1]) : null;
}

/** The first line of the top-level statement of `file` holding `line`. */
function unitAt(units: Map<string, number[]>, file: string, line: number): number {
  const starts = units.get(file) ?? [];
  let unit = 0;
  for (const start of starts) if (start <= line) unit = start;
  return unit;
}

/** Every variable (one row per variable and reader file) with the apps that read it. */
export function environmentVariables(probed: Map<string, ProbeResult>): (EnvVariable & { apps: string[] })[] {
  const { reads, literals, units } = scan();
  const rows = new Map<string, EnvVariable & { apps: Set<string> }>();
  for (const read of reads) {
    const key = `${read.name} ${read.file}`;
    const known = rows.get(key);
    // The same variable read twice in one file: keep the most telling read (one with a default), and every doc comment.
    if (!known) rows.set(key, { ...read, apps: new Set() });
    else if (known.fallback === null && read.fallback !== null) rows.set(key, { ...read, description: read.description ?? known.description, apps: known.apps });
    else if (!known.description && read.description) known.description = read.description;
  }
  // Which app ran which top-level statement (function) of which file while it booted.
  const reached = new Map<string, Set<string>>();
  for (const [app, result] of probed) {
    for (const read of result.envReads) {
      const unit = `${read.file}:${unitAt(units, read.file, read.line)}`;
      reached.set(unit, (reached.get(unit) ?? new Set()).add(app));
      const row = [...rows.values()].find((candidate) => candidate.name === read.name && candidate.file === read.file && candidate.unit === unitAt(units, read.file, read.line));
      if (row) {
        row.apps.add(app);
        continue;
      }
      // Read under a name the reading code got from elsewhere: where the code spells it (a port passed to readServiceBaseConfig, GIT_HOST_VARIABLES).
      const spelled = literals.get(read.name) ?? [];
      const at = spelled.find((literal) => literal.file.startsWith(`apps/${app}/`)) ?? spelled[0];
      const key = `${read.name} ${at?.file ?? read.file}`;
      const known =
        rows.get(key) ??
        (at
          ? { name: read.name, file: at.file, line: at.line, unit: -1, kind: at.use, fallback: at.next, range: null, description: null, apps: new Set<string>() }
          : { name: read.name, file: read.file, line: read.line, unit: -1, kind: 'computed name', fallback: null, range: null, description: null, apps: new Set<string>() });
      known.apps.add(app);
      rows.set(key, known);
    }
  }
  return [...rows.values()]
    .map(({ apps, ...row }) => {
      // A read no app reached while booting (it depends on other settings) is the app's that ran its function.
      for (const app of reached.get(`${row.file}:${row.unit}`) ?? []) apps.add(app);
      const own = appOfFile(row.file);
      if (own) apps.add(own);
      return { ...row, apps: [...apps].sort() };
    })
    .sort((a, b) => (a.name === b.name ? (a.file < b.file ? -1 : 1) : a.name < b.name ? -1 : 1));
}

const cell = (text: string): string => text.replace(/\|/g, '\\|');

export function renderConfiguration(probed: Map<string, ProbeResult>): string {
  const lines = ['| variable | apps | kind | default | range | read in | field |', '|---|---|---|---|---|---|---|'];
  for (const row of environmentVariables(probed)) {
    const code = (text: string | null): string => (text === null ? '' : `\`${cell(text)}\``);
    lines.push(
      `| \`${row.name}\` | ${row.apps.join(', ') || '—'} | ${row.kind} | ${code(row.fallback)} | ${code(row.range)} | \`${row.file}\` | ${cell(row.description ?? '')} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}
