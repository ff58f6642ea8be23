# vkherd tasks; each mirrors a plain cargo command from the README.

# Run vkherd on a bundled example.
run:
    cargo run --release -- litmus-tests/mp/MP-relacq-wg.litmus

# Run the whole test suite.
test:
    cargo test --workspace

# Run the Khronos reference suite (needs ../shared/khronos-tests).
conformance:
    cargo run --release -- khronos ../shared/khronos-tests

# Lints as CI runs them.
lint:
    cargo fmt --all -- --check
    cargo clippy --workspace --all-targets -- -D warnings

# cargo-fuzz needs nightly features: on the stable toolchain RUSTC_BOOTSTRAP=1 enables
# them (ASan works; add `-s none` after `run` if it does not on your machine). Seeds come
# from the repository (fuzz/seed.sh); findings land in fuzz/artifacts/TARGET/. Needs
# `cargo install cargo-fuzz`. See docs/errors.md "Fuzzing".
# Fuzz TARGET (parse_litmus, parse_khronos, parse_opencl, parse_cat, run_cat or pipeline)
# for SECS seconds; not part of CI.
fuzz target="pipeline" secs="1800":
    ./fuzz/seed.sh {{target}}
    cd fuzz && RUSTC_BOOTSTRAP=1 RAYON_NUM_THREADS=1 cargo fuzz run {{target}} corpus/{{target}} -- \
        -dict={{target}}.dict \
        -max_total_time={{secs}} -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
