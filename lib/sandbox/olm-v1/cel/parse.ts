// The part of CEL (the Common Expression Language kube-apiserver evaluates `x-kubernetes-validations`
// rules in) that the OLM v1 CRDs' rules are written in: literals, `self`/`oldSelf`, field selection,
// calls (`has`, `isURL`, `url`, and methods such as `matches`, `find`, `substring`, `size`), `!`,
// comparisons, `in`, `&&`, `||` and `? :`. A rule outside this part fails to parse, and the API
// server then skips it rather than guessing (docs/olm-v1/crds.md#validation-rules).

export type Expr =
  | { kind: 'lit'; value: string | number | boolean | null }
  | { kind: 'ident'; name: string }
  | { kind: 'select'; target: Expr; field: string }
  | { kind: 'call'; target?: Expr; fn: string; args: Expr[] }
  | { kind: 'index'; target: Expr; key: Expr }
  | { kind: 'unary'; op: '!' | '-'; arg: Expr }
  | { kind: 'binary'; op: string; left: Expr; right: Expr }
  | { kind: 'cond'; test: Expr; then: Expr; else: Expr };

type Token = { t: 'str' | 'num' | 'ident' | 'op'; v: string };

const OPS = ['&&', '||', '==', '!=', '<=', '>=', '<', '>', '!', '?', ':', '(', ')', '[', ']', '.', ',', '-', '+'];

/** CEL's escapes in quoted strings (the rules use `\\` and `\'`-free quoting). */
function unescape(body: string): string {
  return body.replace(/\\(.)/g, (_, c: string) =>
    c === 'n' ? '\n' : c === 't' ? '\t' : c === 'r' ? '\r' : c === '\\' || c === '"' || c === "'" ? c : `\\${c}`,
  );
}

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < src.length && src[j] !== c) j += src[j] === '\\' ? 2 : 1;
      if (j >= src.length) throw new Error('unterminated string');
      out.push({ t: 'str', v: unescape(src.slice(i + 1, j)) });
      i = j + 1;
      continue;
    }
    const num = /^\d+/.exec(src.slice(i));
    if (num) {
      out.push({ t: 'num', v: num[0] });
      i += num[0].length;
      continue;
    }
    const id = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i));
    if (id) {
      out.push({ t: 'ident', v: id[0] });
      i += id[0].length;
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (!op) throw new Error(`unexpected character ${JSON.stringify(c)}`);
    out.push({ t: 'op', v: op });
    i += op.length;
  }
  return out;
}

// Precedence as CEL's grammar: ?: < || < && < relations (== != < <= > >= in) < + - < unary < member.
const BINARY_LEVELS: string[][] = [['||'], ['&&'], ['==', '!=', '<', '<=', '>', '>=', 'in'], ['+', '-']];

export function parseCel(src: string): Expr {
  const toks = tokenize(src);
  let p = 0;
  const peek = () => toks[p];
  const isOp = (v: string) => peek()?.t === 'op' && peek()!.v === v;
  const expect = (v: string) => {
    if (!isOp(v)) throw new Error(`expected ${v}`);
    p++;
  };
  const binaryOp = (level: number): string | undefined => {
    const tok = peek();
    if (!tok) return undefined;
    const v = tok.v;
    if ((tok.t === 'op' || (tok.t === 'ident' && v === 'in')) && BINARY_LEVELS[level]!.includes(v)) return v;
    return undefined;
  };
  const conditional = (): Expr => {
    const test = binary(0);
    if (!isOp('?')) return test;
    p++;
    const then = conditional();
    expect(':');
    return { kind: 'cond', test, then, else: conditional() };
  };
  const binary = (level: number): Expr => {
    if (level === BINARY_LEVELS.length) return unary();
    let left = binary(level + 1);
    for (let op = binaryOp(level); op; op = binaryOp(level)) {
      p++;
      left = { kind: 'binary', op, left, right: binary(level + 1) };
    }
    return left;
  };
  const unary = (): Expr => {
    if (isOp('!') || isOp('-')) {
      const op = toks[p++]!.v as '!' | '-';
      return { kind: 'unary', op, arg: unary() };
    }
    return member();
  };
  const args = (): Expr[] => {
    expect('(');
    const list: Expr[] = [];
    while (!isOp(')')) {
      list.push(conditional());
      if (!isOp(')')) expect(',');
    }
    p++;
    return list;
  };
  const member = (): Expr => {
    let e = primary();
    for (;;) {
      if (isOp('.')) {
        p++;
        const name = toks[p++];
        if (name?.t !== 'ident') throw new Error('expected a field name');
        e = isOp('(')
          ? { kind: 'call', target: e, fn: name.v, args: args() }
          : { kind: 'select', target: e, field: name.v };
      } else if (isOp('[')) {
        p++;
        const key = conditional();
        expect(']');
        e = { kind: 'index', target: e, key };
      } else return e;
    }
  };
  const primary = (): Expr => {
    const tok = toks[p++];
    if (!tok) throw new Error('unexpected end of expression');
    if (tok.t === 'str') return { kind: 'lit', value: tok.v };
    if (tok.t === 'num') return { kind: 'lit', value: Number(tok.v) };
    if (tok.t === 'op' && tok.v === '(') {
      const e = conditional();
      expect(')');
      return e;
    }
    if (tok.t === 'ident') {
      if (tok.v === 'true' || tok.v === 'false') return { kind: 'lit', value: tok.v === 'true' };
      if (tok.v === 'null') return { kind: 'lit', value: null };
      if (isOp('(')) return { kind: 'call', fn: tok.v, args: args() };
      return { kind: 'ident', name: tok.v };
    }
    throw new Error(`unexpected ${tok.v}`);
  };
  const e = conditional();
  if (p !== toks.length) throw new Error(`unexpected ${toks[p]!.v}`);
  return e;
}
