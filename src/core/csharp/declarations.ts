// Finds declarations in one C# file from its tokens: namespaces (block and file-scoped), types
// (class, struct, interface, record, enum, delegate) with nesting, and members (methods,
// constructors, properties, indexers, fields, events, enum members, positional record
// properties). Bodies of methods and accessors are skipped, so locals never show up. It is a
// scanner, not a compiler: good enough to point the model at the right line, cheap to run on
// every file, and forgiving of code that does not compile.

import type { SymbolInfo, SymbolKind } from '../host';
import { baseTypeList } from './base-types';
import { blankNonCode } from './lexer';
import { isGroup, isIdent, isPlainToken, isToken, regroup, textOf, withoutAttributes } from './items';
import type { Group, Item } from './items';
import { tokenize } from './tokens';
import type { Token } from './tokens';

interface Scope {
  kind: 'namespace' | 'type';
  /** Qualified name that children report as their container. */
  container: string | undefined;
  typeName?: string;
}

/** `bases`: what a type declaration lists after `:` (see base-types.ts); absent when nothing. */
export type Declaration = Omit<SymbolInfo, 'filePath'> & { bases?: string[] };

const TYPE_KEYWORDS: Record<string, SymbolKind> = {
  class: 'class',
  struct: 'struct',
  interface: 'interface',
  enum: 'enum',
  record: 'record',
};
const MODIFIERS = new Set([
  'public',
  'private',
  'protected',
  'internal',
  'static',
  'readonly',
  'sealed',
  'abstract',
  'virtual',
  'override',
  'new',
  'partial',
  'async',
  'extern',
  'unsafe',
  'volatile',
  'const',
  'required',
  'file',
  'fixed',
  'ref',
  'scoped',
]);
const NOT_A_MEMBER_NAME = new Set([...MODIFIERS, 'this', 'base', 'get', 'set', 'init', 'add', 'remove', 'where', 'return', 'operator']);

export function parseDeclarations(source: string): Declaration[] {
  return declarationsInCode(blankNonCode(source));
}

/** Declarations in source whose comments and literals are already blanked (see lexer.ts). */
export function declarationsInCode(code: string): Declaration[] {
  return new DeclarationScanner(tokenize(code)).scan();
}

const qualify = (container: string | undefined, name: string): string => (container ? `${container}.${name}` : name);

class DeclarationScanner {
  private readonly found: Declaration[] = [];
  private i = 0;

  constructor(private readonly tokens: Token[]) {}

  scan(): Declaration[] {
    this.block({ kind: 'namespace', container: undefined }, true);
    return this.found;
  }

  /** Reads declarations until the closing brace of the current block (or, at top level, the end of the file). */
  private block(scope: Scope, topLevel = false): void {
    let head: Item[] = [];
    while (this.i < this.tokens.length) {
      const t = this.tokens[this.i];
      if (t.text === '}') {
        this.i++;
        // A stray brace at top level (unbalanced #if branches, broken code) must not end the file.
        if (!topLevel) return;
        head = [];
        continue;
      }
      if (t.text === '{') {
        this.openBrace(head, scope);
        head = [];
      } else if (t.text === ';') {
        this.i++;
        this.semicolon(head, scope);
        head = [];
      } else if (t.text === '=>' && head.length > 0) {
        if (scope.kind === 'type') this.member(head, scope, 'property');
        this.skipPast(';');
        head = [];
      } else if (t.text === '=' && scope.kind === 'type' && head.length > 0) {
        this.member(head, scope, 'field');
        this.skipPast(';');
        head = [];
      } else if (t.text === '(' || t.text === '[') {
        head.push(this.group());
      } else {
        head.push(t);
        this.i++;
      }
    }
  }

  private openBrace(rawHead: Item[], scope: Scope): void {
    const head = withoutAttributes(rawHead);
    const ns = namespaceName(head);
    if (ns) {
      this.i++;
      this.declare(ns.token, ns.name, 'namespace', scope.container);
      this.block({ kind: 'namespace', container: qualify(scope.container, ns.name) });
      return;
    }
    const type = typeDeclaration(head);
    if (type) {
      this.declareType(head, type, scope);
      this.i++;
      const inner = qualify(scope.container, type.name.text);
      if (type.kind === 'enum') this.enumBody(inner);
      else this.block({ kind: 'type', container: inner, typeName: type.name.text });
      return;
    }
    if (scope.kind === 'type') this.member(head, scope, 'property');
    this.skipBraces();
  }

  private semicolon(rawHead: Item[], scope: Scope): void {
    const head = withoutAttributes(rawHead);
    if (head.length === 0) return;
    const ns = namespaceName(head);
    if (ns) {
      // File-scoped: everything after it in this file belongs to it.
      this.declare(ns.token, ns.name, 'namespace', scope.container);
      scope.container = qualify(scope.container, ns.name);
      return;
    }
    const type = typeDeclaration(head);
    if (type) {
      this.declareType(head, type, scope);
      return;
    }
    const delegateAt = head.findIndex((item) => isToken(item, 'delegate'));
    if (delegateAt !== -1 && head.some((item) => isGroup(item, '('))) {
      const name = nameBeforeGroup(
        head,
        head.findIndex((item, k) => k > delegateAt && isGroup(item, '(')),
      );
      if (name) this.declare(name, name.text, 'delegate', scope.container);
      return;
    }
    if (scope.kind === 'type') this.member(head, scope, 'field');
  }

  /** A member of a type; `shape` says what it is when it has no parameter list. */
  private member(head: Item[], scope: Scope, shape: 'property' | 'field'): void {
    const items = withoutAttributes(head);
    if (items.some((item) => isToken(item, 'event'))) {
      for (const name of declaratorNames(items)) this.declare(name, name.text, 'event', scope.container);
      return;
    }
    const operatorAt = items.findIndex((item) => isToken(item, 'operator'));
    const operatorParams = items.findIndex((item, k) => k > operatorAt && isGroup(item, '('));
    if (operatorAt !== -1 && operatorParams !== -1) {
      const symbol = items
        .slice(operatorAt + 1, operatorParams)
        .filter(isPlainToken)
        .map((t) => t.text)
        .join('');
      this.declare(items[operatorAt] as Token, `operator ${symbol}`, 'method', scope.container);
      return;
    }
    const callAt = items.findIndex((item, k) => isGroup(item, '(') && nameBeforeGroup(items, k) !== null);
    if (callAt !== -1) {
      this.callable(items, callAt, scope);
      return;
    }
    const thisAt = items.findIndex((item, k) => isToken(item, 'this') && isGroup(items[k + 1], '['));
    if (thisAt !== -1) {
      this.declare(items[thisAt] as Token, 'this[]', 'property', scope.container);
      return;
    }
    if (items.filter((item) => !isToken(item) || !MODIFIERS.has(item.text)).length < 2) return; // needs a type and a name
    const names = shape === 'field' ? declaratorNames(items) : [lastIdent(items)].filter((t): t is Token => t !== null);
    for (const name of names) this.declare(name, name.text, shape, scope.container);
  }

  private callable(items: Item[], callAt: number, scope: Scope): void {
    const name = nameBeforeGroup(items, callAt) as Token;
    const nameAt = items.indexOf(name);
    if (isToken(items[nameAt - 1], '~')) {
      this.declare(name, `~${name.text}`, 'method', scope.container);
      return;
    }
    const onlyModifiersBefore = items.slice(0, nameAt).every((item) => isToken(item) && MODIFIERS.has(item.text));
    const kind: SymbolKind = name.text === scope.typeName && onlyModifiersBefore ? 'constructor' : 'method';
    this.declare(name, name.text, kind, scope.container);
  }

  private declareType(head: Item[], type: TypeDeclaration, scope: Scope): void {
    // An enum's `: byte` is its underlying type, not a base.
    const bases = type.kind === 'enum' ? [] : baseTypeList(head, head.indexOf(type.name));
    this.declare(type.name, type.name.text, type.kind, scope.container, bases);
    if (type.kind !== 'record') return;
    // Positional records: `record Point(int X, int Y)` declares properties X and Y.
    const paramsAt = head.findIndex((item, k) => k > head.indexOf(type.name) && isGroup(item, '('));
    if (paramsAt === -1) return;
    const container = qualify(scope.container, type.name.text);
    for (const param of declaratorNames(regroup((head[paramsAt] as Group).inner), true)) {
      this.declare(param, param.text, 'property', container);
    }
  }

  private enumBody(container: string): void {
    const start = this.i;
    this.skipBraces(1);
    const body = regroup(this.tokens.slice(start, this.i - 1));
    let expectName = true;
    for (const item of body) {
      if (textOf(item) === ',') expectName = true;
      else if (expectName && isIdent(item)) {
        this.declare(item, item.text, 'field', container);
        expectName = false;
      }
    }
  }

  private declare(token: Token, name: string, kind: SymbolKind, containerName: string | undefined, bases: string[] = []): void {
    this.found.push({
      name,
      kind,
      line: token.line,
      column: token.column,
      ...(containerName ? { containerName } : {}),
      ...(bases.length > 0 ? { bases } : {}),
    });
  }

  /** Consumes a balanced ( ) or [ ] group starting at the current token. */
  private group(): Group {
    const open = this.tokens[this.i].text as '(' | '[';
    const start = this.i;
    let depth = 0;
    do {
      const text = this.tokens[this.i].text;
      if (text === '(' || text === '[' || text === '{') depth++;
      else if (text === ')' || text === ']' || text === '}') depth--;
      this.i++;
    } while (depth > 0 && this.i < this.tokens.length);
    return { kind: 'group', open, inner: this.tokens.slice(start + 1, this.i - 1) };
  }

  /** Skips a { } block; `depth` 1 when the opening brace was already consumed. */
  private skipBraces(depth = 0): void {
    while (this.i < this.tokens.length) {
      const text = this.tokens[this.i++].text;
      if (text === '{') depth++;
      else if (text === '}' && --depth <= 0) return;
    }
  }

  /** Skips to just past the next `;` outside brackets (an initializer or expression body). */
  private skipPast(terminator: ';'): void {
    let depth = 0;
    while (this.i < this.tokens.length) {
      const text = this.tokens[this.i++].text;
      if (text === '(' || text === '[' || text === '{') depth++;
      else if (text === ')' || text === ']' || text === '}') {
        if (--depth < 0) {
          this.i--; // the enclosing block ends here: leave its brace for block() to see
          return;
        }
      } else if (text === terminator && depth === 0) return;
    }
  }
}

interface TypeDeclaration {
  kind: SymbolKind;
  name: Token;
}

function typeDeclaration(head: Item[]): TypeDeclaration | null {
  const firstGroup = head.findIndex((item) => isGroup(item));
  for (let k = 0; k < head.length; k++) {
    if (firstGroup !== -1 && k > firstGroup) break;
    const item = head[k];
    if (!isIdent(item) || !(item.text in TYPE_KEYWORDS)) continue;
    let nameAt = k + 1;
    if (item.text === 'record' && (isToken(head[nameAt], 'class') || isToken(head[nameAt], 'struct'))) nameAt++;
    const name = head[nameAt];
    if (isIdent(name) && !(name.text in TYPE_KEYWORDS) && name.text !== 'where') return { kind: TYPE_KEYWORDS[item.text], name };
  }
  return null;
}

function namespaceName(head: Item[]): { token: Token; name: string } | null {
  const at = head.findIndex((item) => isToken(item, 'namespace'));
  if (at === -1 || !isIdent(head[at + 1])) return null;
  const parts = head
    .slice(at + 1)
    .filter(isPlainToken)
    .map((t) => t.text);
  return { token: head[at + 1] as Token, name: parts.join('') };
}

/** The identifier naming a parameter list at `groupAt`, skipping generic parameters (`Map<T>(`). */
function nameBeforeGroup(items: Item[], groupAt: number): Token | null {
  let k = groupAt - 1;
  if (isToken(items[k], '>')) {
    let depth = 0;
    for (; k >= 0; k--) {
      if (isToken(items[k], '>')) depth++;
      else if (isToken(items[k], '<') && --depth === 0) break;
    }
    k--;
  }
  const candidate = items[k];
  return isIdent(candidate) && !NOT_A_MEMBER_NAME.has(candidate.text) ? candidate : null;
}

/** Names declared in `int a, b` (or parameters `int X, int Y`): the last identifier of each comma-separated part. */
function declaratorNames(items: Item[], lastOfEach = false): Token[] {
  const names: Token[] = [];
  let part: Item[] = [];
  let angle = 0;
  const flush = (first: boolean): void => {
    const name = first || lastOfEach ? lastIdent(part) : (part.find(isIdent) ?? null);
    if (name) names.push(name);
    part = [];
  };
  let first = true;
  for (const item of items) {
    const text = textOf(item);
    if (text === '<') angle++;
    else if (text === '>') angle--;
    if (text === ',' && angle <= 0) {
      flush(first);
      first = false;
    } else {
      part.push(item);
    }
  }
  flush(first);
  return names;
}

function lastIdent(items: Item[]): Token | null {
  for (let k = items.length - 1; k >= 0; k--) {
    const item = items[k];
    if (isIdent(item) && !NOT_A_MEMBER_NAME.has(item.text)) return item;
  }
  return null;
}
