"""A small interpreter for the subset of cat used by ptx.cat and ptx-v6.0.cat.

Statements: `let x = e`, `let f(a, b) = e`, `let rec x = e` (one name, least fixpoint),
`acyclic|irreflexive|empty e as name`. Expressions (loosest first): `|`, `;`, `\\`, `&`,
binary `*` (product of sets), prefix `~`, postfix `+ * ? ^-1`; atoms: names, calls,
`[S]`, `( e )`, `domain(e)`, `range(e)`. Precedence as docs/models.md.

This is a check of the model files' text, independent of vkherd's own cat engine.
"""
import re

from rel import Rel

TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<str>"[^"]*")
  | (?P<inv>\^-1)
  | (?P<name>[A-Za-z_][A-Za-z0-9_.\-]*)
  | (?P<num>[0-9]+)
  | (?P<op>[|;\\&*~+?\[\](),=])
""", re.X)

KEYWORDS = {"let", "rec", "and", "as", "acyclic", "irreflexive", "empty"}


def strip_comments(src):
    out = []
    i = 0
    depth = 0
    while i < len(src):
        if src.startswith("(*", i):
            depth += 1
            i += 2
        elif depth and src.startswith("*)", i):
            depth -= 1
            i += 2
        elif depth:
            i += 1
        elif src.startswith("//", i):
            j = src.find("\n", i)
            i = len(src) if j < 0 else j
        else:
            out.append(src[i])
            i += 1
    assert depth == 0, "unclosed comment"
    return "".join(out)


def tokenize(src):
    src = strip_comments(src)
    toks = []
    pos = 0
    while pos < len(src):
        m = TOKEN.match(src, pos)
        if not m:
            raise SyntaxError("bad char at %r" % src[pos:pos + 20])
        pos = m.end()
        kind = m.lastgroup
        if kind == "ws":
            continue
        text = m.group(kind)
        if kind == "name" and text in KEYWORDS:
            kind = "kw"
        toks.append((kind, text))
    toks.append(("eof", ""))
    return toks


class Parser:
    def __init__(self, toks):
        self.toks = toks
        self.i = 0

    def peek(self, k=0):
        return self.toks[self.i + k]

    def next(self):
        t = self.toks[self.i]
        self.i += 1
        return t

    def expect(self, text):
        t = self.next()
        if t[1] != text:
            raise SyntaxError("expected %r, got %r at token %d" % (text, t, self.i))
        return t

    def program(self):
        stmts = []
        if self.peek()[0] == "str":
            self.next()
        while self.peek()[0] != "eof":
            stmts.append(self.stmt())
        return stmts

    def stmt(self):
        t = self.next()
        if t == ("kw", "let"):
            rec = False
            if self.peek() == ("kw", "rec"):
                self.next()
                rec = True
            name = self.next()
            assert name[0] == "name", name
            params = None
            if self.peek()[1] == "(":
                self.next()
                params = []
                while True:
                    params.append(self.next()[1])
                    if self.peek()[1] == ",":
                        self.next()
                        continue
                    self.expect(")")
                    break
            self.expect("=")
            e = self.expr()
            return ("let", name[1], params, e, rec)
        if t[0] == "kw" and t[1] in ("acyclic", "irreflexive", "empty"):
            e = self.expr()
            self.expect("as")
            name = self.next()[1]
            return ("check", t[1], e, name)
        raise SyntaxError("unexpected %r" % (t,))

    # precedence: | ; \ & * (binary) prefix~ postfix
    def expr(self):
        e = self.seq()
        while self.peek()[1] == "|":
            self.next()
            e = ("|", e, self.seq())
        return e

    def seq(self):
        e = self.diff()
        while self.peek()[1] == ";":
            self.next()
            e = (";", e, self.diff())
        return e

    def diff(self):
        e = self.inter()
        while self.peek()[1] == "\\":
            self.next()
            e = ("\\", e, self.inter())
        return e

    def inter(self):
        e = self.prod()
        while self.peek()[1] == "&":
            self.next()
            e = ("&", e, self.prod())
        return e

    def starts_operand(self, t):
        return t[0] in ("name", "num") or t[1] in ("(", "[", "~")

    def prod(self):
        e = self.unary()
        while self.peek()[1] == "*" and self.starts_operand(self.peek(1)):
            self.next()
            e = ("prod", e, self.unary())
        return e

    def unary(self):
        if self.peek()[1] == "~":
            self.next()
            return ("~", self.unary())
        return self.postfix()

    def postfix(self):
        e = self.atom()
        while True:
            t = self.peek()
            if t[1] == "+":
                self.next()
                e = ("+", e)
            elif t[1] == "?":
                self.next()
                e = ("?", e)
            elif t[0] == "inv":
                self.next()
                e = ("inv", e)
            elif t[1] == "*" and not self.starts_operand(self.peek(1)):
                self.next()
                e = ("star", e)
            else:
                return e

    def atom(self):
        t = self.next()
        if t[1] == "(":
            e = self.expr()
            self.expect(")")
            return e
        if t[1] == "[":
            e = self.expr()
            self.expect("]")
            return ("id", e)
        if t[0] == "num":
            assert t[1] == "0"
            return ("zero",)
        if t[0] == "name":
            if self.peek()[1] == "(":
                self.next()
                args = []
                if self.peek()[1] != ")":
                    while True:
                        args.append(self.expr())
                        if self.peek()[1] == ",":
                            self.next()
                            continue
                        break
                self.expect(")")
                return ("call", t[1], args)
            return ("name", t[1])
        raise SyntaxError("unexpected %r" % (t,))


def parse(src):
    return Parser(tokenize(src)).program()


class Model:
    def __init__(self, path):
        with open(path) as f:
            self.stmts = parse(f.read())

    def base_names(self):
        """The free names the model reads."""
        defined = set()
        free = set()

        def walk(e, bound):
            k = e[0]
            if k == "name":
                if e[1] not in defined and e[1] not in bound:
                    free.add(e[1])
            elif k == "call":
                if e[1] not in ("domain", "range") and e[1] not in defined:
                    free.add(e[1])
                for a in e[2]:
                    walk(a, bound)
            else:
                for sub in e[1:]:
                    if isinstance(sub, tuple):
                        walk(sub, bound)

        for s in self.stmts:
            if s[0] == "let":
                _, name, params, e, rec = s
                bound = set(params or [])
                if rec:
                    bound.add(name)
                walk(e, bound)
                defined.add(name)
            else:
                walk(s[2], set())
        return free

    def run(self, n, base, want=("co",)):
        """Evaluate on one candidate. base: name -> int (set) or Rel. Returns
        (failed check names, {name: value for want})."""
        env = dict(base)
        funcs = {}
        full = (1 << n) - 1

        def ev(e, loc):
            k = e[0]
            if k == "name":
                if e[1] in loc:
                    return loc[e[1]]
                return env[e[1]]
            if k == "zero":
                return Rel(n)
            if k == "call":
                name, args = e[1], e[2]
                vals = [ev(a, loc) for a in args]
                if name == "domain":
                    return vals[0].domain()
                if name == "range":
                    return vals[0].range()
                params, body = funcs[name]
                return ev(body, dict(zip(params, vals)))
            if k == "id":
                s = ev(e[1], loc)
                assert isinstance(s, int)
                return Rel.ident(n, s)
            if k == "prod":
                a, b = ev(e[1], loc), ev(e[2], loc)
                assert isinstance(a, int) and isinstance(b, int)
                return Rel.prod(n, a, b)
            if k == "~":
                a = ev(e[1], loc)
                return (full & ~a) if isinstance(a, int) else a.compl()
            if k in ("+", "star", "?", "inv"):
                a = ev(e[1], loc)
                assert isinstance(a, Rel), e
                return {"+": a.plus, "star": a.star, "?": a.opt, "inv": a.inv}[k]()
            a, b = ev(e[1], loc), ev(e[2], loc)
            if k == ";":
                return a.comp(b)
            if isinstance(a, int):
                assert isinstance(b, int), e
                return {"|": a | b, "&": a & b, "\\": a & ~b}[k]
            assert isinstance(b, Rel), e
            return {"|": a | b, "&": a & b, "\\": a - b}[k]

        failed = []
        for s in self.stmts:
            if s[0] == "let":
                _, name, params, e, rec = s
                if params is not None:
                    funcs[name] = (params, e)
                elif rec:
                    cur = Rel(n)
                    while True:
                        env[name] = cur
                        nxt = ev(e, {})
                        if nxt == cur:
                            break
                        cur = nxt
                else:
                    env[name] = ev(e, {})
            else:
                _, kind, e, name = s
                v = ev(e, {})
                ok = {"acyclic": v.acyclic, "irreflexive": v.irreflexive,
                      "empty": v.empty}[kind]()
                if not ok:
                    failed.append(name)
        return failed, {w: env[w] for w in want}
