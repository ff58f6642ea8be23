//! The cycle grammar (docs/generate.md "Grammar"): diy7's edge names, with a placement
//! `@LEVEL` on external edges, dotted fence words on `Fenced..` and `Cbar..` edges, and
//! event annotations in brackets between edges.
//!
//! ```text
//! cycle := item+            item := edge | '[' words ']'
//! edge  := NAME ('.' word)* ('@' level)?
//! ```
//!
//! A bracket annotates the event between the edge before it and the edge after it; a
//! bracket before the first edge or after the last one annotates the cycle's first event
//! (the source of the first edge).

use super::ann::{AccessSpec, FenceKind, FenceSpec, Level};
use super::dialects::GenDialect;
use super::error::{ErrorKind, GenError, TokenRef};

/// The direction of an edge's endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dir {
    R,
    W,
}

impl Dir {
    fn letter(self) -> char {
        match self {
            Dir::R => 'R',
            Dir::W => 'W',
        }
    }

    fn from_letter(c: char) -> Option<Dir> {
        match c {
            'R' => Some(Dir::R),
            'W' => Some(Dir::W),
            _ => None,
        }
    }
}

/// A dependency edge's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DpKind {
    Addr,
    Data,
    Ctrl,
}

/// What an edge relates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EdgeKind {
    /// Reads-from (`Rfe`, `Rfi`).
    Rf,
    /// From-read (`Fre`, `Fri`).
    Fr,
    /// Coherence (`Coe`/`Wse`, `Coi`/`Wsi`).
    Co,
    /// Program order (`Pod..`, `Pos..`).
    Po,
    /// Program order with a fence between (`Fenced..`, `Fences..`).
    Fenced,
    /// Program order with a dependency (`DpAddr..`, `DpData..`, `DpCtrl..`).
    Dp(DpKind),
    /// The read and the write of one read-modify-write (`Rmw`).
    Rmw,
    /// A control barrier between two invocations: the source, then a barrier in its
    /// invocation; a barrier of the same instance, then the target, in the other
    /// (`Cbard..`, `Cbars..`; not diy7's).
    Cbar,
}

/// One edge of a cycle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edge {
    pub kind: EdgeKind,
    /// Between two invocations.
    pub external: bool,
    /// Both endpoints access one location.
    pub same_loc: bool,
    pub src: Dir,
    pub tgt: Dir,
    /// The fence of a `Fenced..` edge, the barrier of a `Cbar..` edge.
    pub fence: FenceSpec,
    /// `@LEVEL` on an external edge.
    pub place: Option<Level>,
    pub token: TokenRef,
}

impl Edge {
    /// The edge's name in the vocabulary without its annotations, with diy7's synonyms
    /// made one (`Wse` is `Coe`).
    pub fn name(&self) -> String {
        let e = if self.external { 'e' } else { 'i' };
        let ds = if self.same_loc { 's' } else { 'd' };
        let (s, t) = (self.src.letter(), self.tgt.letter());
        match self.kind {
            EdgeKind::Rf => format!("Rf{e}"),
            EdgeKind::Fr => format!("Fr{e}"),
            EdgeKind::Co => format!("Co{e}"),
            EdgeKind::Rmw => "Rmw".into(),
            EdgeKind::Po => format!("Po{ds}{s}{t}"),
            EdgeKind::Fenced => format!("Fence{ds}{s}{t}"),
            EdgeKind::Cbar => format!("Cbar{ds}{s}{t}"),
            EdgeKind::Dp(k) => {
                let k = match k {
                    DpKind::Addr => "Addr",
                    DpKind::Data => "Data",
                    DpKind::Ctrl => "Ctrl",
                };
                format!("Dp{k}{ds}{t}")
            }
        }
    }

    /// A communication edge (rf, fr, co).
    pub fn is_com(&self) -> bool {
        matches!(self.kind, EdgeKind::Rf | EdgeKind::Fr | EdgeKind::Co)
    }
}

/// What is said about one event, and where.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EventSpec {
    pub spec: AccessSpec,
    /// The bracket that said it (the last one, when two did).
    pub token: Option<TokenRef>,
}

/// A parsed cycle: edge `i` leads from event `i` to event `i + 1` (mod the length).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cycle {
    pub dialect: &'static dyn GenDialect,
    /// The cycle as given (the arguments joined by spaces), for error carets.
    pub text: String,
    pub edges: Vec<Edge>,
    pub events: Vec<EventSpec>,
}

/// A token of the cycle text.
enum Token {
    Edge(TokenRef),
    /// A bracket: the words inside, and the whole token.
    Event(String, TokenRef),
}

/// The edge names, for error messages.
pub const EDGE_NAMES: &str = "Rfe, Rfi, Fre, Fri, Coe, Coi (Wse, Wsi), PodXY, PosXY, FencedXY, FencesXY, DpDatadW, DpDatasW, DpCtrldY, DpCtrlsY, DpAddrdY, DpAddrsY, Rmw, CbardXY, CbarsXY (X, Y in R, W)";

/// Splits the cycle text into edges and brackets.
fn tokens(text: &str) -> Result<Vec<Token>, GenError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let tok = |index: usize, text: String, column: usize| TokenRef {
        index,
        text,
        column,
    };
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if c == '[' {
            let Some(len) = chars[i..].iter().position(|&c| c == ']') else {
                let t = tok(out.len(), chars[i..].iter().collect(), start + 1);
                return Err(GenError::at(
                    ErrorKind::UnknownAnnotation,
                    &t,
                    "an event annotation that is not closed: expected `]`",
                ));
            };
            let whole: String = chars[i..=i + len].iter().collect();
            let inner: String = chars[i + 1..i + len].iter().collect();
            out.push(Token::Event(inner, tok(out.len(), whole, start + 1)));
            i += len + 1;
            continue;
        }
        while i < chars.len() && !chars[i].is_whitespace() && chars[i] != '[' {
            i += 1;
        }
        let word: String = chars[start..i].iter().collect();
        let t = tok(out.len(), word.clone(), start + 1);
        if word.contains(']') {
            return Err(GenError::at(
                ErrorKind::UnknownEdge,
                &t,
                "a `]` without its `[`: event annotations are written `[rel.wg]`",
            ));
        }
        out.push(Token::Edge(t));
    }
    Ok(out)
}

/// Parses a cycle of `dialect` (docs/generate.md "Grammar").
pub fn parse(text: &str, dialect: &'static dyn GenDialect) -> Result<Cycle, GenError> {
    let mut edges = Vec::new();
    // Brackets seen since the last edge: they annotate the event before the next edge.
    let mut pending: Vec<(AccessSpec, TokenRef)> = Vec::new();
    let mut events: Vec<EventSpec> = Vec::new();
    let mut leading: Vec<(AccessSpec, TokenRef)> = Vec::new();
    for token in tokens(text)? {
        match token {
            Token::Event(inner, t) => {
                let words: Vec<&str> = inner
                    .split(['.', ','])
                    .map(str::trim)
                    .filter(|w| !w.is_empty())
                    .collect();
                let spec = AccessSpec::parse(&words, dialect)
                    .map_err(|e| GenError::at(e.kind, &t, e.message))?;
                pending.push((spec, t));
            }
            Token::Edge(t) => {
                let edge = parse_edge(&t, dialect)?;
                let said = std::mem::take(&mut pending);
                if edges.is_empty() {
                    leading = said;
                    events.push(EventSpec::default());
                } else {
                    let last = events.len();
                    events.push(EventSpec::default());
                    merge_into(&mut events[last], said, dialect)?;
                }
                edges.push(edge);
            }
        }
    }
    if edges.is_empty() {
        return Err(GenError::new(
            ErrorKind::Empty,
            format!("the cycle has no edge; expected edges such as `PodWW Rfe PodRR Fre` ({EDGE_NAMES})"),
        ));
    }
    // Brackets after the last edge and before the first annotate event 0.
    let mut first = std::mem::take(&mut pending);
    first.extend(leading);
    merge_into(&mut events[0], first, dialect)?;
    Ok(Cycle {
        dialect,
        text: text.to_string(),
        edges,
        events,
    })
}

fn merge_into(
    event: &mut EventSpec,
    said: Vec<(AccessSpec, TokenRef)>,
    dialect: &dyn GenDialect,
) -> Result<(), GenError> {
    for (spec, t) in said {
        event.spec = event
            .spec
            .merge(&spec, dialect)
            .map_err(|m| GenError::at(ErrorKind::Incompatible, &t, m))?;
        event.token = Some(t);
    }
    Ok(())
}

/// The shape of an edge name: kind, external, same location, source, target.
type EdgeShape = (EdgeKind, bool, bool, Dir, Dir);

/// Reads an edge name, or says what is wrong with it.
fn edge_shape(name: &str, dialect: &dyn GenDialect) -> Result<EdgeShape, (ErrorKind, String)> {
    use Dir::{R, W};
    let fixed = match name {
        "Rfe" => Some((EdgeKind::Rf, true, true, W, R)),
        "Rfi" => Some((EdgeKind::Rf, false, true, W, R)),
        "Fre" => Some((EdgeKind::Fr, true, true, R, W)),
        "Fri" => Some((EdgeKind::Fr, false, true, R, W)),
        "Coe" | "Wse" => Some((EdgeKind::Co, true, true, W, W)),
        "Coi" | "Wsi" => Some((EdgeKind::Co, false, true, W, W)),
        "Rmw" => Some((EdgeKind::Rmw, false, true, R, W)),
        _ => None,
    };
    if let Some(f) = fixed {
        return Ok(f);
    }
    let unknown = || {
        (
            ErrorKind::UnknownEdge,
            format!("unknown edge `{name}`; expected one of {EDGE_NAMES}"),
        )
    };
    // Two-letter forms: PREFIX + d|s? + X + Y.
    let two = |rest: &str| -> Option<(Dir, Dir)> {
        let mut cs = rest.chars();
        let (x, y) = (cs.next()?, cs.next()?);
        if cs.next().is_some() {
            return None;
        }
        Some((Dir::from_letter(x)?, Dir::from_letter(y)?))
    };
    for (prefix, kind, external, same) in [
        ("Pod", EdgeKind::Po, false, false),
        ("Pos", EdgeKind::Po, false, true),
        ("Fenced", EdgeKind::Fenced, false, false),
        ("Fences", EdgeKind::Fenced, false, true),
        ("Cbard", EdgeKind::Cbar, true, false),
        ("Cbars", EdgeKind::Cbar, true, true),
    ] {
        if let Some(rest) = name.strip_prefix(prefix) {
            return two(rest)
                .map(|(s, t)| (kind, external, same, s, t))
                .ok_or_else(|| {
                    (
                        ErrorKind::UnknownEdge,
                        format!(
                            "unknown edge `{name}`: `{prefix}` takes the directions of its two events, each R or W ({prefix}WW, {prefix}WR, {prefix}RW, {prefix}RR)"
                        ),
                    )
                });
        }
    }
    for (prefix, dp) in [
        ("DpAddr", DpKind::Addr),
        ("DpData", DpKind::Data),
        ("DpCtrl", DpKind::Ctrl),
    ] {
        let Some(rest) = name.strip_prefix(prefix) else {
            continue;
        };
        let mut cs = rest.chars();
        let (ds, y) = (cs.next(), cs.next().and_then(Dir::from_letter));
        let same = match ds {
            Some('d') => false,
            Some('s') => true,
            _ => return Err(unknown()),
        };
        let (Some(y), None) = (y, cs.next()) else {
            return Err(unknown());
        };
        if dp == DpKind::Addr {
            let dialect = dialect.dialect().title;
            return Err((
                ErrorKind::NotExpressible,
                format!("an address dependency cannot be written in the {dialect} dialect: its locations are names, not computed addresses; expected DpData..W or DpCtrl.. (or Pod..)"),
            ));
        }
        if dp == DpKind::Data && y == R {
            return Err((
                ErrorKind::UnknownEdge,
                format!(
                    "a data dependency leads to a write: expected DpData{}W",
                    if same { 's' } else { 'd' }
                ),
            ));
        }
        return Ok((EdgeKind::Dp(dp), false, same, R, y));
    }
    Err(unknown())
}

/// Parses one edge token: `NAME(.word)*(@level)?`.
fn parse_edge(t: &TokenRef, dialect: &dyn GenDialect) -> Result<Edge, GenError> {
    let (body, place) = match t.text.split_once('@') {
        Some((b, p)) => (b, Some(p)),
        None => (t.text.as_str(), None),
    };
    let mut parts = body.split('.');
    let name = parts.next().unwrap_or_default();
    let words: Vec<&str> = parts.collect();
    let (kind, external, same_loc, src, tgt) =
        edge_shape(name, dialect).map_err(|(k, m)| GenError::at(k, t, m))?;
    let place = match place {
        None => None,
        Some(_) if !external => {
            return Err(GenError::at(
                ErrorKind::UnknownAnnotation,
                t,
                format!("a placement on the internal edge `{name}`: only external edges (Rfe, Fre, Coe, Cbar..) join two invocations"),
            ))
        }
        Some(p) => Some(Level::from_word(p, dialect).ok_or_else(|| {
            let words: Vec<&str> = Level::ALL.iter().map(|l| l.word(dialect)).collect();
            GenError::at(
                ErrorKind::UnknownAnnotation,
                t,
                format!("unknown placement `@{p}`; expected @{}", words.join(", @")),
            )
        })?),
    };
    let takes_words = matches!(kind, EdgeKind::Fenced | EdgeKind::Cbar);
    if !words.is_empty() && !takes_words {
        return Err(GenError::at(
            ErrorKind::UnknownAnnotation,
            t,
            format!("`{name}` takes no dotted annotation: annotate its events in brackets between edges (`{name} [acq]`){}", if external { format!(", and its placement after `@` (`{name}@wg`)") } else { String::new() }),
        ));
    }
    let fence =
        FenceSpec::parse(&words, dialect).map_err(|e| GenError::at(e.kind, t, e.message))?;
    if kind == EdgeKind::Cbar && fence.kind == Some(FenceKind::Membar) {
        return Err(GenError::at(
            ErrorKind::Incompatible,
            t,
            "a `Cbar..` edge is a control barrier: a memory barrier word on it; expected barrier annotations (acq_rel, nosem, a scope, ...)",
        ));
    }
    Ok(Edge {
        kind,
        external,
        same_loc,
        src,
        tgt,
        fence,
        place,
        token: t.clone(),
    })
}
