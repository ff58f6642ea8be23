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
