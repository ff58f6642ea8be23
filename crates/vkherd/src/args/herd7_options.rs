//! herd7's options that vkherd does not have, each with its nearest vkherd equivalent, so
//! that a herd7 habit (`-nshow 1`, `-through all`, `-q`) gets "herd7's -nshow is not
//! supported by vkherd" and what to use instead, not clap's `unexpected argument`.
//!
//! The list follows the options of herd7's manual (herd7 -help). Options vkherd has under
//! the same name (`-model`, `-variant`, `-unroll`, `-speedcheck`, `-timeout`, `-j`,
//! `-o`, `-doshow`, `-version`) never reach it: [`super::argv`] looks vkherd's own
//! options up first. Two of them take other values in herd7: `-show` (which executions to
//! draw; vkherd: which relations, see `vkherd::explain::check_show`) and `-graph` (a
//! layout; vkherd: a directory, see `GraphArgs::check`).

/// One herd7 option vkherd does not have.
#[derive(Debug, PartialEq, Eq)]
pub struct Herd7Option {
    /// Without the dash: `nshow`.
    pub name: &'static str,
    /// What to do instead, as a sentence.
    pub instead: &'static str,
}

/// The error for a herd7 option vkherd does not have.
#[derive(Debug, PartialEq, Eq)]
pub struct Unsupported {
    pub option: &'static Herd7Option,
}

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "error: herd7's -{} is not supported by vkherd; {} (docs/cli.md, \"herd7's options\")",
            self.option.name, self.option.instead
        )
    }
}

const DRAWING_STYLE: &str = "vkherd's graphs have one style (threads as columns, P0 leftmost, clusters by scope): edit the DOT that --dot or --graph DIR writes to restyle it";
const SELECT_FILES: &str =
    "give the tests to run as arguments (a directory runs every .litmus file below it)";
const NO_EQUIVALENT_VALUES: &str =
    "vkherd's values are 64-bit integers printed in decimal; there is no equivalent";
const VIEWER: &str = "--graph DIR writes a .dot file per witness and an .svg beside it (with Graphviz) to open in any viewer; or --dot | dot -Tsvg > out.svg";
const CHECKS: &str = "every check of the model applies; to leave one out, copy the model, edit it and run it with --model my.cat (docs/models.md), or turn on one of its variants with --variant (`vkherd models`)";

macro_rules! herd7_options {
    ($($name:literal => $instead:expr;)*) => {
        /// herd7's options vkherd does not have, by name.
        pub const HERD7_OPTIONS: &[Herd7Option] = &[$(Herd7Option { name: $name, instead: $instead },)*];
    };
}

herd7_options! {
    // General.
    "v" => "--stats prints each test's candidates, pruning and time on stderr";
    "q" => "vkherd prints warnings on stderr only; send them away with 2>/dev/null";
    "I" => "a .cat model's `include \"file.cat\"` names a bundled model or a file beside the including one: give the model by its path, --model DIR/NAME.cat";
    "libdir" => "vkherd's models are built in: `vkherd models` lists them";
    "set-libdir" => "vkherd's models are built in: `vkherd models` lists them; a model of your own is --model FILE.cat";
    "conf" => "write the options on the command line (they may come before a subcommand)";
    "suffix" => "--graph DIR names its files TEST-stateK.dot (explain: TEST-stateK-reasonR.dot)";
    "gv" => VIEWER;
    "evince" => VIEWER;
    "dumpes" => "`vkherd explain --json` prints the executions of the states asked about";
    "hexa" => NO_EQUIVALENT_VALUES;
    "machsize" => NO_EQUIVALENT_VALUES;
    "endian" => NO_EQUIVALENT_VALUES;
    "debug" => "--stats prints the search's counts; there is no debug trace";
    "auto" => "there is no equivalent: vkherd's output is the same in every run";
    // Models and checks.
    "cat" => "--model FILE.cat runs a cat model (or a bundled one by name: `vkherd models`)";
    "bell" => "bell files are not supported: a model is one cat file, --model FILE.cat";
    "macros" => "macro files are not supported: tests use vkherd's instruction syntax (docs/litmus-format.md)";
    "through" => "vkherd lists only the executions the model allows; `vkherd explain --state S` shows the candidates that checks reject, with the check that fails and a cycle";
    "skipchecks" => CHECKS;
    "strictskip" => CHECKS;
    "optace" => "there is no equivalent: the search prunes by the model's checks (--naive turns pruning off)";
    "archcheck" => "there is no equivalent: a test's instructions are checked by the parser";
    "initwrites" => "initial values are not events in vkherd (a read of one reads from `init`, docs/semantics.md); there is no equivalent";
    "badexecs" => "the model's flags (its `Flag NAME` lines, # racy and # flagged marks) are always reported; there is no equivalent";
    "badflag" => "the model's flags (its `Flag NAME` lines, # racy and # flagged marks) are always reported; there is no equivalent";
    // Which tests and conditions.
    "names" => SELECT_FILES;
    "excl" => SELECT_FILES;
    "nonames" => SELECT_FILES;
    "rename" => SELECT_FILES;
    "kinds" => "each test's own condition is judged; edit the test to change its quantifier";
    "conds" => "each test's own condition is judged; edit the test to change it, or ask about any state with `vkherd explain --state S`";
    // Drawing.
    "nshow" => "vkherd draws one witness per state (--dot, --graph DIR); `vkherd explain --state S --dot` draws the executions of one state";
    "showevents" => "graphs show every event of the execution; --show REL,... chooses the relations drawn besides po, rf, asmo and fr";
    "unshow" => "--show REL,... names the relations drawn besides po, rf, asmo and fr; no other is drawn";
    "showraw" => "--show REL,... draws the relations as the model computes them";
    "symetric" => "--show REL,... draws each pair of a relation; there is no equivalent";
    "dotmode" => DRAWING_STYLE;
    "dotcom" => "vkherd writes DOT for Graphviz's dot (--dot | dot -Tsvg, or --graph DIR); run another Graphviz program on it yourself";
    "showinitwrites" => DRAWING_STYLE;
    "showinitrf" => DRAWING_STYLE;
    "showfinalrf" => DRAWING_STYLE;
    "showkind" => DRAWING_STYLE;
    "showlegend" => DRAWING_STYLE;
    "showthread" => DRAWING_STYLE;
    "shortlegend" => DRAWING_STYLE;
    "texmacros" => DRAWING_STYLE;
    "mono" => DRAWING_STYLE;
    "fontsize" => DRAWING_STYLE;
    "edgefontsizedelta" => DRAWING_STYLE;
    "penwidth" => DRAWING_STYLE;
    "arrowsize" => DRAWING_STYLE;
    "splines" => DRAWING_STYLE;
    "pad" => DRAWING_STYLE;
    "scale" => DRAWING_STYLE;
    "xscale" => DRAWING_STYLE;
    "yscale" => DRAWING_STYLE;
    "squished" => DRAWING_STYLE;
    "fixedsize" => DRAWING_STYLE;
    "extrachars" => DRAWING_STYLE;
    "edgeattr" => DRAWING_STYLE;
    "oneinit" => DRAWING_STYLE;
    "edgemerge" => DRAWING_STYLE;
}

/// herd7's option written `arg` (`-nshow`, `--nshow`, `-through=all`, `-Idir`), if it
/// is one vkherd does not have. Only called for arguments that are no vkherd option.
pub fn unsupported(arg: &str) -> Option<Unsupported> {
    let word = arg.strip_prefix("--").or_else(|| arg.strip_prefix('-'))?;
    let name = word.split('=').next().unwrap_or(word);
    // `-Idir`: herd7's -I takes its directory attached too.
    let name = if name.starts_with('I') && !arg.starts_with("--") {
        "I"
    } else {
        name
    };
    HERD7_OPTIONS
        .iter()
        .find(|o| o.name == name)
        .map(|option| Unsupported { option })
}

/// herd7's `-show` values (which executions to draw), for `--show`'s error message.
pub const HERD7_SHOW_VALUES: [&str; 5] = ["all", "cond", "wit", "neg", "none"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn herd7_spellings_are_recognised() {
        for (arg, name) in [
            ("-nshow", "nshow"),
            ("--nshow", "nshow"),
            ("-through=all", "through"),
            ("-I", "I"),
            ("-Imodels", "I"),
            ("-q", "q"),
            ("-v", "v"),
        ] {
            assert_eq!(unsupported(arg).map(|u| u.option.name), Some(name), "{arg}");
        }
        for arg in ["-frobnicate", "nshow", "-", "--"] {
            assert_eq!(unsupported(arg), None, "{arg}");
        }
    }

    #[test]
    fn names_are_listed_once() {
        let mut names: Vec<&str> = HERD7_OPTIONS.iter().map(|o| o.name).collect();
        names.sort_unstable();
        let n = names.len();
        names.dedup();
        assert_eq!(names.len(), n, "a herd7 option is listed twice");
    }

    #[test]
    fn the_message_names_the_option_and_what_to_use() {
        let u = unsupported("-nshow").unwrap();
        assert_eq!(
            u.to_string(),
            "error: herd7's -nshow is not supported by vkherd; vkherd draws one witness per state (--dot, --graph DIR); `vkherd explain --state S --dot` draws the executions of one state (docs/cli.md, \"herd7's options\")"
        );
    }
}
