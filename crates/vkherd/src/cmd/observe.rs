//! `vkherd observe PATH...`: runs each `.litmus` test on a Vulkan device and prints, per
//! final state, how often it was observed and whether the model allows it
//! (docs/observe.md).

use crate::args::ObserveArgs;
use crate::cli::exit::ExitStatus;
use crate::cli::test_files::{files_to_run, TestKind};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::Path;
use vkherd::html::{Entry, EntryResult, Extras, FileError, Page};
use vkherd::json::{ObservedError, ObservedErrorObject};
use vkherd::observed::{self, ObservedTest};
use vkherd::RunConfig;
use vkherd::{Options, Report};
use vkherd_observe::device::Device;
use vkherd_observe::{harness, ObserveError, Params, Plan, Vulkan};

fn no_vulkan(e: &ObserveError) -> ExitStatus {
    eprintln!("error: {e}");
    match e {
        ObserveError::DeviceIndex { .. } => ExitStatus::BadInput,
        _ => ExitStatus::NoVulkan,
    }
}

pub fn run(args: &ObserveArgs) -> ExitStatus {
    let vulkan = match Vulkan::load() {
        Ok(v) => v,
        Err(e) => return no_vulkan(&e),
    };
    if args.list_devices {
        return list_devices(&vulkan);
    }
    let files = match files_to_run(&args.paths, TestKind::Litmus) {
        Ok(f) => f,
        Err(e) => return ExitStatus::bad_input(&e),
    };
    let device = match vulkan.open(args.device) {
        Ok(d) => d,
        Err(e) => return no_vulkan(&e),
    };
    let no_chains_forced = !device.info.features.chains;
    let model = match args.model.model_forcing_no_chains(no_chains_forced) {
        Ok(m) => m,
        Err(e) => return ExitStatus::bad_input(&e),
    };
    let opts = Options {
        // (the variants asked for are not passed: no note says one was left out)
        model: vkherd::models::ModelChoice {
            variants: Vec::new(),
            ..model.clone()
        },
        run: RunConfig {
            unroll: args.unroll,
            states_only: true,
            ..RunConfig::default()
        },
        // What the model predicts for a test whose instances hang (docs/observe.md).
        liveness: Some(args.progress.clone()),
    };
    let info = vkherd::report::run_info(&opts);
    let params = args.params();
    let mut status = ExitStatus::Ok;
    let mut entries = Vec::new();
    let (mut observed, mut forbidden, mut refused, mut hung) = (0u64, 0u64, 0u64, 0u64);
    for file in &files {
        let shown = file.display().to_string();
        let source = match std::fs::read(file) {
            Ok(b) => String::from_utf8_lossy(&b).into_owned(),
            Err(e) => {
                eprintln!("error: cannot read {shown}: {e}");
                status = ExitStatus::combine(status, ExitStatus::BadInput);
                continue;
            }
        };
        let result = observe_file(&device, &source, &opts, &params, args, no_chains_forced);
        let (code, entry) = match result {
            Ok((report, t)) => {
                let ending = observed::ending(&t.rows, &t.observation);
                let bad = ending == observed::Ending::Forbidden;
                if args.json {
                    let line = observed::json(&report, &t, &shown, &info);
                    outln!(
                        "{}",
                        serde_json::to_string(&line).expect("an observation serializes")
                    );
                } else {
                    outln!("{}", observed::text(&report, &t));
                }
                observed += 1;
                forbidden += u64::from(bad);
                hung += u64::from(ending == observed::Ending::Hung);
                let code = ExitStatus::of_observed(ending);
                let entry = Entry {
                    file: shown.clone(),
                    source: Some(source.clone()),
                    seconds: Some(t.observation.seconds),
                    result: EntryResult::Litmus(Box::new(report)),
                    extras: Extras::none("observe draws no graphs; vkherd report draws them"),
                    observed: Some(t),
                };
                (code, entry)
            }
            Err(Failure::Diagnostic(d)) => {
                let rendered = d.render(&shown, &source);
                eprint!("{rendered}");
                let location = format!("{shown}:{}:{}", d.span.line.max(1), d.span.column.max(1));
                (
                    ExitStatus::BadInput,
                    error_entry(&shown, &source, location, d.message.clone(), rendered),
                )
            }
            Err(Failure::Observe(e)) => {
                let (location, rendered) = match &e {
                    ObserveError::Unsupported { span: Some(s), .. } => {
                        let d = vkherd::Diagnostic::new(*s, e.to_string());
                        (
                            format!("{shown}:{}:{}", s.line, s.column),
                            d.render(&shown, &source),
                        )
                    }
                    _ => (shown.clone(), format!("{shown}: error: {e}\n")),
                };
                eprint!("{rendered}");
                let code = match e {
                    ObserveError::Unsupported { .. } => {
                        refused += 1;
                        ExitStatus::Refused
                    }
                    ObserveError::Vulkan { .. } | ObserveError::DeviceUnfit { .. } => {
                        ExitStatus::NoVulkan
                    }
                    _ => ExitStatus::BadInput,
                };
                if args.json {
                    let line = ObservedError {
                        file: shown.clone(),
                        error: ObservedErrorObject {
                            location: location.clone(),
                            message: e.to_string(),
                        },
                    };
                    outln!(
                        "{}",
                        serde_json::to_string(&line).expect("an error object serializes")
                    );
                }
                (
                    code,
                    error_entry(&shown, &source, location, e.to_string(), rendered),
                )
            }
        };
        status = ExitStatus::combine(status, code);
        entries.push(entry);
    }
    if files.len() > 1 && !args.json {
        outln!(
            "Summary: {} observed on {}, {} with a forbidden state observed, {} hung (no instance finished), {} refused (not expressible on the device)",
            vkherd::report::plural(observed, "test"),
            device.info.name,
            forbidden,
            hung,
            refused
        );
    }
    if let Some(path) = &args.html {
        let page = Page {
            inputs: args.paths.iter().map(|p| p.display().to_string()).collect(),
            info,
            entries,
            seconds: None,
            families: Vec::new(),
            extras_note: Some(format!(
                "Observed on {}.",
                observed::device_text(&device.info)
            )),
        };
        if let Err(e) = std::fs::write(path, vkherd::html::html(&page)) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return ExitStatus::combine(status, ExitStatus::BadInput);
        }
    }
    status
}

fn error_entry(
    file: &str,
    source: &str,
    location: String,
    message: String,
    rendered: String,
) -> Entry {
    Entry {
        file: file.to_string(),
        source: Some(source.to_string()),
        result: EntryResult::Error(FileError {
            location,
            message,
            rendered,
        }),
        seconds: None,
        extras: Extras::none("the file was not run"),
        observed: None,
    }
}

enum Failure {
    Diagnostic(vkherd::Diagnostic),
    Observe(ObserveError),
}

/// Loads, judges with the model and runs one test.
fn observe_file(
    device: &Device,
    source: &str,
    opts: &Options,
    params: &Params,
    args: &ObserveArgs,
    no_chains_forced: bool,
) -> Result<(Report, ObservedTest), Failure> {
    let program = vkherd::load_litmus(source).map_err(Failure::Diagnostic)?;
    let plan = Plan::new(&program).map_err(Failure::Observe)?;
    let report =
        vkherd::run_with_source(&program, Some(source), opts).map_err(Failure::Diagnostic)?;
    if let Some(dir) = &args.spirv {
        write_spirv(device, dir, &program, &plan, params).map_err(Failure::Observe)?;
    }
    let bar = ProgressBar::new(params.iterations);
    bar.set_style(
        ProgressStyle::with_template(
            "{msg} [{bar:30}] {pos}/{len} iterations, {per_sec}, ETA {eta}",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    bar.set_message(program.name.clone());
    let observation = harness::run(device, &program, &plan, params, &mut |k| {
        bar.set_position(k)
    })
    .map_err(Failure::Observe)?;
    bar.finish_and_clear();
    let rows = observed::rows(&program, &report, &observation);
    Ok((
        report,
        ObservedTest {
            rows,
            device: device.info.clone(),
            params: *params,
            observation,
            no_chains_forced,
        },
    ))
}

fn write_spirv(
    device: &Device,
    dir: &Path,
    program: &vkherd::LoweredProgram,
    plan: &Plan,
    params: &Params,
) -> Result<(), ObserveError> {
    let words = harness::module(device, program, plan, params)?;
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let path = dir.join(format!("{}.spv", program.name));
    if let Err(e) = std::fs::create_dir_all(dir).and_then(|()| std::fs::write(&path, bytes)) {
        eprintln!("warning: cannot write {}: {e}", path.display());
    }
    Ok(())
}

fn list_devices(vulkan: &Vulkan) -> ExitStatus {
    let devices = match vulkan.devices() {
        Ok(d) => d,
        Err(e) => return no_vulkan(&e),
    };
    if devices.is_empty() {
        return no_vulkan(&ObserveError::NoDevice);
    }
    for d in &devices {
        let f = d.features;
        let yes = |b: bool| if b { "yes" } else { "no" };
        outln!(
            "{}: {}\n   subgroup size {}, memory model {}, device scope {}, av/vis chains {}, 64-bit atomics {}{}",
            d.index,
            observed::device_text(d),
            d.subgroup_size,
            yes(f.memory_model),
            yes(f.device_scope),
            yes(f.chains),
            yes(f.int64 && f.buffer_int64_atomics),
            match &d.unfit {
                Some(why) => format!("\n   cannot run litmus tests: {why}"),
                None => String::new(),
            }
        );
    }
    ExitStatus::Ok
}
