//! SPIR-V for a litmus test: the Vulkan memory model (`OpMemoryModel Logical Vulkan`),
//! built with `rspirv` (no external tool at run time) and checked before use.

mod builder;
pub mod check;
mod instr;
mod shader;

pub use instr::{scope, semantics};
pub use shader::ShaderConfig;

use crate::error::ObserveError;
use crate::plan::Plan;
use vkherd_model::Program;

/// The checked SPIR-V words of the shader that runs `program` as `plan` placed it.
pub fn generate(
    program: &Program,
    plan: &Plan,
    cfg: &ShaderConfig,
) -> Result<Vec<u32>, ObserveError> {
    let words = shader::generate(program, plan, cfg).map_err(|e| ObserveError::InvalidModule {
        rule: check::SpirvRule::Builder(e.to_string()),
    })?;
    check::check(&words).map_err(|rule| ObserveError::InvalidModule { rule })?;
    Ok(words)
}
