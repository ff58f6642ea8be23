"""Relations over events 0..n-1 as tuples of row bitmasks; sets as int bitmasks.

A relation r is a tuple of n ints: bit j of r[i] is set when (i, j) is in r.
"""


class Rel:
    __slots__ = ("n", "rows")

    def __init__(self, n, rows=None):
        self.n = n
        self.rows = tuple(rows) if rows is not None else (0,) * n

    @staticmethod
    def from_pairs(n, pairs):
        rows = [0] * n
        for a, b in pairs:
            rows[a] |= 1 << b
        return Rel(n, rows)

    @staticmethod
    def ident(n, s):
        return Rel(n, [(1 << i) if (s >> i) & 1 else 0 for i in range(n)])

    @staticmethod
    def prod(n, s, t):
        return Rel(n, [t if (s >> i) & 1 else 0 for i in range(n)])

    def pairs(self):
        out = []
        for i, row in enumerate(self.rows):
            j = 0
            while row:
                if row & 1:
                    out.append((i, j))
                row >>= 1
                j += 1
        return out

    def has(self, a, b):
        return (self.rows[a] >> b) & 1 == 1

    def __or__(self, o):
        return Rel(self.n, [a | b for a, b in zip(self.rows, o.rows)])

    def __and__(self, o):
        return Rel(self.n, [a & b for a, b in zip(self.rows, o.rows)])

    def __sub__(self, o):
        return Rel(self.n, [a & ~b for a, b in zip(self.rows, o.rows)])

    def __eq__(self, o):
        return self.rows == o.rows

    def __hash__(self):
        return hash(self.rows)

    def comp(self, o):
        out = []
        for row in self.rows:
            acc = 0
            j = 0
            while row:
                if row & 1:
                    acc |= o.rows[j]
                row >>= 1
                j += 1
            out.append(acc)
        return Rel(self.n, out)

    def inv(self):
        rows = [0] * self.n
        for i, row in enumerate(self.rows):
            j = 0
            while row:
                if row & 1:
                    rows[j] |= 1 << i
                row >>= 1
                j += 1
        return Rel(self.n, rows)

    def plus(self):
        rows = list(self.rows)
        n = self.n
        for k in range(n):
            bk = 1 << k
            rk = rows[k]
            for i in range(n):
                if rows[i] & bk:
                    rows[i] |= rk
        return Rel(n, rows)

    def star(self):
        full = (1 << self.n) - 1
        return self.plus() | Rel.ident(self.n, full)

    def opt(self):
        full = (1 << self.n) - 1
        return self | Rel.ident(self.n, full)

    def compl(self):
        full = (1 << self.n) - 1
        return Rel(self.n, [full & ~r for r in self.rows])

    def domain(self):
        s = 0
        for i, r in enumerate(self.rows):
            if r:
                s |= 1 << i
        return s

    def range(self):
        s = 0
        for r in self.rows:
            s |= r
        return s

    def empty(self):
        return not any(self.rows)

    def irreflexive(self):
        return all(not ((r >> i) & 1) for i, r in enumerate(self.rows))

    def acyclic(self):
        return self.plus().irreflexive()

    def restrict(self, s, t):
        return Rel(self.n, [(r & t) if (s >> i) & 1 else 0 for i, r in enumerate(self.rows)])


def bits(s):
    i = 0
    out = []
    while s:
        if s & 1:
            out.append(i)
        s >>= 1
        i += 1
    return out
