//! herd7's command-line habits, applied to the arguments before clap reads them:
//!
//! - single-dash long options: `-unroll 3`, `-model vulkan-2024`, `-j 2`. Any long option
//!   of the clap definition is accepted with one dash, so an option added later gets its
//!   herd7 spelling for free;
//! - options written before a subcommand: `vkherd --timeout 5 khronos DIR` runs as
//!   `vkherd khronos --timeout 5 DIR`.
//!
//! Only the spelling changes: which options a (sub)command accepts is still clap's call,
//! so `vkherd --time khronos DIR` is rejected by `khronos` as before. One exception: an
//! option of herd7's that vkherd does not have (`-nshow`, `-q`) is refused here, with
//! what to use instead ([`super::herd7_options`]).

use super::herd7_options::{self, Unsupported};
use clap::{Arg, Command};
use std::ffi::OsString;

/// Why the arguments were not rewritten.
#[derive(Debug)]
pub enum ArgvError {
    /// A herd7 option vkherd does not have.
    Unsupported(Unsupported),
    /// A subcommand's name after options (`vkherd --timeout 1 gen`) that is also an
    /// existing path: it is not moved to the front, to become a subcommand silently.
    PathOrSubcommand(String),
}

impl std::fmt::Display for ArgvError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ArgvError::Unsupported(u) => u.fmt(f),
            ArgvError::PathOrSubcommand(word) => write!(
                f,
                "error: `{word}` is both a subcommand and a path here: write `./{word}` to run the tests in the path, or put the subcommand first (`vkherd {word} ...`) to run the subcommand"
            ),
        }
    }
}

/// The arguments (program name first) rewritten as clap expects them, or the first
/// herd7 option among them that vkherd does not have. `is_path` says whether a word
/// names an existing file or directory: a subcommand's name after options that is
/// also one is ambiguous, and refused.
pub fn normalize(
    cmd: &Command,
    args: Vec<OsString>,
    is_path: &dyn Fn(&OsString) -> bool,
) -> Result<Vec<OsString>, ArgvError> {
    let mut cmd = cmd.clone();
    cmd.build();
    let mut args = args;
    let mut context: &Command = &cmd;
    // Index of the subcommand name, if the first positional argument is one.
    let mut subcommand_at = None;
    let mut positional_seen = false;
    let mut i = 1;
    while i < args.len() {
        let Some(arg) = args[i].to_str().map(str::to_string) else {
            positional_seen = true;
            i += 1;
            continue;
        };
        if arg == "--" {
            break;
        }
        if let Some(long) = single_dash_long(&arg) {
            let name = long.split('=').next().unwrap_or(long);
            if find_long(context, name, subcommand_at.is_none()).is_some() {
                args[i] = format!("-{arg}").into();
            } else if let Some(u) = herd7_options::unsupported(&arg) {
                return Err(ArgvError::Unsupported(u));
            }
        }
        let arg = args[i].to_string_lossy().into_owned();
        if let Some(long) = arg.strip_prefix("--") {
            let (name, attached) = match long.split_once('=') {
                Some((n, _)) => (n, true),
                None => (long, false),
            };
            let found = find_long(context, name, subcommand_at.is_none());
            if let (None, Some(u)) = (found, herd7_options::unsupported(&arg)) {
                return Err(ArgvError::Unsupported(u));
            }
            let takes_value = found.is_some_and(|a| a.get_action().takes_values());
            i += if takes_value && !attached { 2 } else { 1 };
            continue;
        }
        if let Some(shorts) = arg.strip_prefix('-').filter(|s| !s.is_empty()) {
            // `-j 2` takes the next argument; `-j2` carries its value.
            let first = shorts.chars().next().unwrap_or('-');
            let found = find_short(context, first, subcommand_at.is_none());
            if let (None, Some(u)) = (found, herd7_options::unsupported(&arg)) {
                return Err(ArgvError::Unsupported(u));
            }
            let takes_value = found.is_some_and(|a| a.get_action().takes_values());
            i += if takes_value && shorts.chars().count() == 1 {
                2
            } else {
                1
            };
            continue;
        }
        if subcommand_at.is_none() && !positional_seen {
            if let Some(sub) = cmd
                .get_subcommands()
                .find(|s| s.get_name() == arg || s.get_all_aliases().any(|a| a == arg))
            {
                context = sub;
                subcommand_at = Some(i);
            }
        }
        positional_seen = true;
        i += 1;
    }
    match subcommand_at {
        // Options before `help` do not change the help text: they are dropped.
        Some(k) if k > 1 && args[k] == "help" => {
            args.drain(1..k);
            Ok(args)
        }
        Some(k) if k > 1 && is_path(&args[k]) => Err(ArgvError::PathOrSubcommand(
            args[k].to_string_lossy().into_owned(),
        )),
        Some(k) if k > 1 => {
            let sub = args.remove(k);
            args.insert(1, sub);
            Ok(args)
        }
        _ => Ok(args),
    }
}

/// `unroll=3` for `-unroll=3`: a single dash followed by a name of two or more characters
/// starting with a letter (so `-j`, `-j2` and negative numbers are left alone).
fn single_dash_long(arg: &str) -> Option<&str> {
    let rest = arg.strip_prefix('-')?;
    if rest.starts_with('-') {
        return None;
    }
    let name = rest.split('=').next()?;
    let mut chars = name.chars();
    (chars.next()?.is_ascii_alphabetic() && chars.next().is_some()).then_some(rest)
}

/// The option `--name` of `cmd`; before a subcommand is seen, also of any subcommand (the
/// option will move after it).
fn find_long<'c>(cmd: &'c Command, name: &str, with_subcommands: bool) -> Option<&'c Arg> {
    let own = |c: &'c Command| {
        c.get_arguments().find(|a| {
            a.get_long() == Some(name)
                || a.get_all_aliases()
                    .is_some_and(|aliases| aliases.contains(&name))
        })
    };
    own(cmd).or_else(|| {
        with_subcommands
            .then(|| cmd.get_subcommands().find_map(own))
            .flatten()
    })
}

/// The option `-c` of `cmd` (or, before a subcommand, of any subcommand).
fn find_short(cmd: &Command, c: char, with_subcommands: bool) -> Option<&Arg> {
    fn own(cmd: &Command, c: char) -> Option<&Arg> {
        cmd.get_arguments().find(|a| a.get_short() == Some(c))
    }
    own(cmd, c).or_else(|| {
        with_subcommands
            .then(|| cmd.get_subcommands().find_map(|s| own(s, c)))
            .flatten()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{ArgAction, Command};

    fn cmd() -> Command {
        let common = [
            Arg::new("unroll").long("unroll").num_args(1),
            Arg::new("json").long("json").action(ArgAction::SetTrue),
            Arg::new("threads").short('j').long("threads").num_args(1),
        ];
        Command::new("t")
            .args(common.clone())
            .arg(Arg::new("paths").num_args(1..))
            .subcommand(
                Command::new("khronos")
                    .args(common)
                    .arg(Arg::new("runs").long("runs").num_args(1))
                    .arg(Arg::new("paths").num_args(1..)),
            )
    }

    fn run(args: &[&str]) -> Vec<String> {
        let args = std::iter::once("t")
            .chain(args.iter().copied())
            .map(OsString::from)
            .collect();
        normalize(&cmd(), args, &|_| false)
            .expect("no herd7-only option")
            .into_iter()
            .skip(1)
            .map(|a| a.into_string().unwrap())
            .collect()
    }

    #[test]
    fn single_dash_long_options_get_two_dashes() {
        assert_eq!(run(&["-unroll", "3", "a"]), ["--unroll", "3", "a"]);
        assert_eq!(
            run(&["-unroll=3", "-json", "a"]),
            ["--unroll=3", "--json", "a"]
        );
        assert_eq!(run(&["-j", "2", "-j2", "a"]), ["-j", "2", "-j2", "a"]);
        // Unknown names and option values are left for clap to judge.
        assert_eq!(run(&["-frobnicate", "a"]), ["-frobnicate", "a"]);
        assert_eq!(run(&["--unroll", "-json"]), ["--unroll", "-json"]);
        assert_eq!(run(&["--", "-json"]), ["--", "-json"]);
    }

    #[test]
    fn options_before_a_subcommand_move_after_it() {
        assert_eq!(
            run(&["-unroll", "3", "-j", "2", "khronos", "d"]),
            ["khronos", "--unroll", "3", "-j", "2", "d"]
        );
        assert_eq!(run(&["-runs", "2", "khronos"]), ["khronos", "--runs", "2"]);
        assert_eq!(run(&["-j", "2", "help", "khronos"]), ["help", "khronos"]);
        // A subcommand name after a file, or as an option's value, is a file.
        assert_eq!(run(&["a", "khronos"]), ["a", "khronos"]);
        assert_eq!(
            run(&["--threads", "khronos", "x"]),
            ["--threads", "khronos", "x"]
        );
    }

    /// `vkherd --timeout 1 gen` where `gen` is a directory: not silently the subcommand
    /// (issue 33); first, the subcommand is what it always was.
    #[test]
    fn a_subcommand_name_after_options_that_is_also_a_path_is_refused() {
        let args = |a: &[&str]| -> Vec<OsString> {
            std::iter::once("t")
                .chain(a.iter().copied())
                .map(OsString::from)
                .collect()
        };
        let khronos_is_a_dir = |w: &OsString| w == "khronos";
        match normalize(&cmd(), args(&["-j", "2", "khronos"]), &khronos_is_a_dir) {
            Err(ArgvError::PathOrSubcommand(w)) => assert_eq!(w, "khronos"),
            other => panic!("{other:?}"),
        }
        let e = normalize(&cmd(), args(&["-j", "2", "khronos"]), &khronos_is_a_dir)
            .unwrap_err()
            .to_string();
        assert!(e.contains("write `./khronos`"), "{e}");
        // Subcommand first: the subcommand, path or not.
        assert_eq!(
            normalize(&cmd(), args(&["khronos", "-j", "2"]), &khronos_is_a_dir).unwrap(),
            args(&["khronos", "-j", "2"])
        );
        // `./khronos` is a path, not a subcommand name.
        assert_eq!(
            normalize(&cmd(), args(&["-j", "2", "./khronos"]), &khronos_is_a_dir).unwrap(),
            args(&["-j", "2", "./khronos"])
        );
    }

    #[test]
    fn herd7_options_vkherd_lacks_are_refused_in_any_spelling_and_place() {
        let refused = |args: &[&str]| {
            let args = std::iter::once("t")
                .chain(args.iter().copied())
                .map(OsString::from)
                .collect();
            match normalize(&cmd(), args, &|_| false) {
                Err(ArgvError::Unsupported(u)) => Some(u.option.name),
                _ => None,
            }
        };
        assert_eq!(refused(&["-nshow", "1", "a"]), Some("nshow"));
        assert_eq!(refused(&["a", "--through=all"]), Some("through"));
        assert_eq!(refused(&["-q", "a"]), Some("q"));
        assert_eq!(refused(&["-Imodels", "a"]), Some("I"));
        assert_eq!(refused(&["khronos", "-v", "d"]), Some("v"));
        // An option's value and what follows `--` are not options.
        assert_eq!(refused(&["--unroll", "-q", "a"]), None);
        assert_eq!(refused(&["--", "-q"]), None);
        // vkherd's own options win over herd7's names.
        assert_eq!(refused(&["-j", "2", "-json", "a"]), None);
    }
}
