//! A thin layer over `rspirv`'s builder: the types the shader uses, cached constants, and
//! structured control flow (selections, switches and loops with their merge blocks), so
//! that the code generator cannot emit unstructured flow.

use rspirv::dr::{Builder, Operand};
use rspirv::spirv::{self, Word};
use std::collections::HashMap;

/// The ids of the types the shader uses.
pub struct Types {
    pub void: Word,
    pub bool: Word,
    pub u32: Word,
    /// The signed integer of locations and registers (32 or 64 bits).
    pub int: Word,
    pub v3u32: Word,
    pub ptr_fn_int: Word,
    pub ptr_fn_u32: Word,
    pub ptr_sb_int: Word,
    pub ptr_sb_u32: Word,
    pub ptr_wg_int: Word,
    pub ptr_in_v3u32: Word,
    pub ptr_in_u32: Word,
}

/// A builder with the shader's types and constant cache.
pub struct Gen {
    pub b: Builder,
    pub t: Types,
    pub int_bits: u32,
    consts: HashMap<(Word, u64), Word>,
}

pub type Res<T = ()> = Result<T, rspirv::dr::Error>;

impl Gen {
    pub fn new(mut b: Builder, int_bits: u32) -> Gen {
        let void = b.type_void();
        let bool = b.type_bool();
        let u32 = b.type_int(32, 0);
        let int = b.type_int(int_bits, 1);
        let v3u32 = b.type_vector(u32, 3);
        let t = Types {
            void,
            bool,
            u32,
            int,
            v3u32,
            ptr_fn_int: b.type_pointer(None, spirv::StorageClass::Function, int),
            ptr_fn_u32: b.type_pointer(None, spirv::StorageClass::Function, u32),
            ptr_sb_int: b.type_pointer(None, spirv::StorageClass::StorageBuffer, int),
            ptr_sb_u32: b.type_pointer(None, spirv::StorageClass::StorageBuffer, u32),
            ptr_wg_int: b.type_pointer(None, spirv::StorageClass::Workgroup, int),
            ptr_in_v3u32: b.type_pointer(None, spirv::StorageClass::Input, v3u32),
            ptr_in_u32: b.type_pointer(None, spirv::StorageClass::Input, u32),
        };
        Gen {
            b,
            t,
            int_bits,
            consts: HashMap::new(),
        }
    }

    /// A 32-bit unsigned constant (also scopes and memory semantics).
    pub fn u32(&mut self, v: u32) -> Word {
        let ty = self.t.u32;
        *self
            .consts
            .entry((ty, u64::from(v)))
            .or_insert_with(|| self.b.constant_bit32(ty, v))
    }

    /// A constant of the test's integer type; `v` must fit (the plan chose the width).
    pub fn int(&mut self, v: i64) -> Word {
        let ty = self.t.int;
        let bits = if self.int_bits == 64 {
            v as u64
        } else {
            u64::from(v as i32 as u32)
        };
        if let Some(&id) = self.consts.get(&(ty, bits)) {
            return id;
        }
        let id = if self.int_bits == 64 {
            self.b.constant_bit64(ty, bits)
        } else {
            self.b.constant_bit32(ty, bits as u32)
        };
        self.consts.insert((ty, bits), id);
        id
    }

    pub fn bool_const(&mut self, v: bool) -> Word {
        let ty = self.t.bool;
        *self.consts.entry((ty, u64::from(v))).or_insert_with(|| {
            if v {
                self.b.constant_true(ty)
            } else {
                self.b.constant_false(ty)
            }
        })
    }

    /// Starts a new block with a fresh label; returns the label.
    pub fn block(&mut self, label: Word) -> Res {
        self.b.begin_block(Some(label)).map(|_| ())
    }

    /// `if cond { then }`, structured: a selection with its merge block.
    pub fn if_then(&mut self, cond: Word, then: &mut dyn FnMut(&mut Gen) -> Res) -> Res {
        let (then_l, merge) = (self.b.id(), self.b.id());
        self.b
            .selection_merge(merge, spirv::SelectionControl::NONE)?;
        self.b.branch_conditional(cond, then_l, merge, [])?;
        self.block(then_l)?;
        then(self)?;
        self.b.branch(merge)?;
        self.block(merge)
    }

    /// `switch sel { case k: body(k) ... }` over the given literal cases, default empty.
    pub fn switch(
        &mut self,
        sel: Word,
        cases: &[u32],
        body: &mut dyn FnMut(&mut Gen, u32) -> Res,
    ) -> Res {
        let merge = self.b.id();
        let labels: Vec<Word> = cases.iter().map(|_| self.b.id()).collect();
        self.b
            .selection_merge(merge, spirv::SelectionControl::NONE)?;
        self.b.switch(
            sel,
            merge,
            cases
                .iter()
                .zip(&labels)
                .map(|(&k, &l)| (Operand::LiteralBit32(k), l)),
        )?;
        for (&k, &l) in cases.iter().zip(&labels) {
            self.block(l)?;
            body(self, k)?;
            self.b.branch(merge)?;
        }
        self.block(merge)
    }

    /// `while cond() { body() }`, structured: the header computes the condition, the body
    /// may `break` by returning `Some(cond)` (leave the loop when `cond` holds), the
    /// continue block runs `step`.
    pub fn while_loop(
        &mut self,
        cond: &mut dyn FnMut(&mut Gen) -> Res<Word>,
        body: &mut dyn FnMut(&mut Gen) -> Res<Option<Word>>,
        step: &mut dyn FnMut(&mut Gen) -> Res,
    ) -> Res {
        let (header, check, body_l, cont, merge) = (
            self.b.id(),
            self.b.id(),
            self.b.id(),
            self.b.id(),
            self.b.id(),
        );
        self.b.branch(header)?;
        self.block(header)?;
        self.b
            .loop_merge(merge, cont, spirv::LoopControl::NONE, [])?;
        self.b.branch(check)?;
        self.block(check)?;
        let c = cond(self)?;
        self.b.branch_conditional(c, body_l, merge, [])?;
        self.block(body_l)?;
        match body(self)? {
            Some(leave) => self.b.branch_conditional(leave, merge, cont, [])?,
            None => self.b.branch(cont)?,
        }
        self.block(cont)?;
        step(self)?;
        self.b.branch(header)?;
        self.block(merge)
    }

    /// Loads a Function variable.
    pub fn load(&mut self, ty: Word, var: Word) -> Res<Word> {
        self.b.load(ty, None, var, None, [])
    }

    /// Stores into a Function variable.
    pub fn store(&mut self, var: Word, value: Word) -> Res {
        self.b.store(var, value, None, [])
    }

    /// `var += by` on a u32 Function variable.
    pub fn increment(&mut self, var: Word, by: Word) -> Res {
        let u32 = self.t.u32;
        let v = self.load(u32, var)?;
        let n = self.b.i_add(u32, None, v, by)?;
        self.store(var, n)
    }
}
