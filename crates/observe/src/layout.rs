//! Where test instances run and where their locations live, drawn afresh for every
//! dispatch from the seeded random generator (after MC Mutants: many instances per
//! dispatch, instances spread over workgroups at random, locations at random strided
//! addresses, stress workgroups mixed in).
//!
//! Geometry: a device workgroup of `workgroup_size` invocations has `workgroup_size /
//! subgroup_size` device subgroups. Each device workgroup runs pieces of one test
//! workgroup (group): a piece is one instance's threads of that group, each test subgroup
//! in its own device subgroup, the threads of one test subgroup in lanes of one device
//! subgroup. Subgroup membership is the driver's choice: the layout assumes invocation
//! `k` is in subgroup `k / subgroup_size` and the shader reports the real subgroup ids,
//! so that the host drops the instances whose placement was not honoured.

use crate::bindings::{self, GROUP_SHIFT};
use crate::error::{ObserveError, Unsupported};
use crate::plan::Plan;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// The harness's shape parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    pub workgroup_size: u32,
    pub subgroup_size: u32,
    /// Device workgroups per test workgroup.
    pub workgroups_per_group: u32,
    pub stress_workgroups: u32,
    /// Words between two locations' slots in the test memory.
    pub mem_stride: u32,
}

/// The fixed geometry of a test under a shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Geometry {
    pub shape: Shape,
    /// Per group: pieces one device workgroup holds.
    pub pieces: Vec<u32>,
    /// Instances per dispatch.
    pub instances: u32,
    pub threads: u32,
}

impl Geometry {
    pub fn new(plan: &Plan, shape: Shape) -> Result<Geometry, ObserveError> {
        let sg = shape.subgroup_size.max(1);
        let device_subgroups = (shape.workgroup_size / sg).max(1);
        let mut pieces = Vec::new();
        for g in &plan.groups {
            let s = g.subgroups.len() as u32;
            let lanes = g.lanes() as u32;
            let blocks = device_subgroups / s;
            let per_block = sg / lanes;
            if blocks == 0 || per_block == 0 {
                return Err(ObserveError::unsupported(
                    Unsupported::TooManyInvocations {
                        workgroup: g.wg,
                        need: if blocks == 0 { s } else { lanes },
                        have: if blocks == 0 { device_subgroups } else { sg },
                    },
                    None,
                ));
            }
            pieces.push(blocks * per_block);
        }
        let instances = pieces.iter().min().copied().unwrap_or(0) * shape.workgroups_per_group;
        Ok(Geometry {
            shape,
            pieces,
            instances,
            threads: plan.thread_group.len() as u32,
        })
    }

    pub fn max_pieces(&self) -> u32 {
        self.pieces.iter().copied().max().unwrap_or(0)
    }

    /// Device workgroups in a dispatch.
    pub fn workgroups(&self) -> u32 {
        self.pieces.len() as u32 * self.shape.workgroups_per_group + self.shape.stress_workgroups
    }

    pub fn invocations(&self) -> u32 {
        self.workgroups() * self.shape.workgroup_size
    }
}

/// One dispatch's placement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// Two words per invocation ([`bindings`] role words).
    pub roles: Vec<u32>,
    /// Per instance and buffer location, its word index in the test memory.
    pub addr: Vec<u32>,
    /// Words of test memory.
    pub mem_words: usize,
}

/// Draws the placement of one dispatch.
pub fn draw(plan: &Plan, geo: &Geometry, aligned: bool, rng: &mut ChaCha8Rng) -> Layout {
    let shape = geo.shape;
    let sg = shape.subgroup_size.max(1);
    let device_subgroups = (shape.workgroup_size / sg).max(1);
    let groups = geo.pieces.len() as u32;
    let mut roles = vec![0u32; 2 * geo.invocations() as usize];
    // Which device workgroups run which group, and which are stress. Aligned: each group
    // gets a run of consecutive ids, the pairs in the same random order in every run, and
    // each run is followed by its share of the stress workgroups; a device that gives
    // each of its threads an equal run of workgroup ids (lavapipe) then runs the
    // workgroups of a pair side by side. Scattered: every id drawn at random.
    let wpg = shape.workgroups_per_group as usize;
    let w = groups as usize;
    let (test_ids, stress_ids): (Vec<u32>, Vec<u32>) = if aligned {
        let mut pairs: Vec<u32> = (0..wpg as u32).collect();
        pairs.shuffle(rng);
        let share = shape.stress_workgroups as usize / w.max(1);
        let run = (wpg + share) as u32;
        let test = (0..w * wpg)
            .map(|k| (k / wpg) as u32 * run + pairs[k % wpg])
            .collect();
        let stress = (0..w as u32)
            .flat_map(|g| (0..share as u32).map(move |k| g * run + wpg as u32 + k))
            .chain(w as u32 * run..geo.workgroups())
            .collect();
        (test, stress)
    } else {
        let mut ids: Vec<u32> = (0..geo.workgroups()).collect();
        ids.shuffle(rng);
        let (t, s) = ids.split_at(w * wpg);
        (t.to_vec(), s.to_vec())
    };
    for &s in &stress_ids {
        for lane in 0..shape.workgroup_size {
            roles[2 * (s * shape.workgroup_size + lane) as usize] = bindings::ROLE_STRESS;
        }
    }
    // Per pair of workgroups (one per group), one random order of device subgroups and
    // lanes, shared by the pair when aligned.
    let mut orders: Vec<(Vec<u32>, Vec<u32>)> = Vec::new();
    for _ in 0..wpg * plan.groups.len() {
        let mut subgroups: Vec<u32> = (0..device_subgroups).collect();
        subgroups.shuffle(rng);
        let mut lane_order: Vec<u32> = (0..sg).collect();
        lane_order.shuffle(rng);
        orders.push((subgroups, lane_order));
    }
    let per_instance_pieces = geo.instances as usize / wpg.max(1);
    // Aligned: instance (pair p, piece q) uses piece q of each group's p-th workgroup, with
    // the pair's shared orders, so that partners sit at the same places of their
    // workgroups (they run at the same time where a device runs workgroups side by side
    // and subgroups in order). Otherwise: every group's pieces in an independent random
    // order.
    let mut instance_ids: Vec<u32> = (0..geo.instances).collect();
    instance_ids.shuffle(rng);
    for (g, group) in plan.groups.iter().enumerate() {
        let mine = &test_ids[g * wpg..][..wpg];
        for &w in mine {
            for lane in 0..shape.workgroup_size {
                roles[2 * (w * shape.workgroup_size + lane) as usize + 1] =
                    (g as u32 + 1) << GROUP_SHIFT;
            }
        }
        let s = group.subgroups.len() as u32;
        let lanes = group.lanes() as u32;
        let per_block = sg / lanes;
        let mut slots: Vec<(usize, u32)> = (0..wpg)
            .flat_map(|p| (0..geo.pieces[g]).map(move |q| (p, q)))
            .collect();
        if aligned {
            slots.retain(|&(_, q)| (q as usize) < per_instance_pieces);
        } else {
            slots.shuffle(rng);
        }
        for (k, &(p, piece)) in slots.iter().take(geo.instances as usize).enumerate() {
            let instance = instance_ids[k];
            let w = mine[p];
            let (subgroups, lane_order) = &orders[if aligned { p } else { g * wpg + p }];
            let (block, q) = (piece / per_block, piece % per_block);
            for (k, threads) in group.subgroups.iter().enumerate() {
                let device_sg = subgroups[(block * s) as usize + k];
                for (j, &t) in threads.iter().enumerate() {
                    let lane = lane_order[(q * lanes) as usize + j];
                    let local = device_sg * sg + lane;
                    let gid = (w * shape.workgroup_size + local) as usize;
                    roles[2 * gid] = bindings::ROLE_TEST + instance * geo.threads + t as u32;
                    roles[2 * gid + 1] = ((g as u32 + 1) << GROUP_SHIFT) | piece;
                }
            }
        }
    }
    // Every instance's buffer locations at distinct random slots, `mem_stride` apart.
    let n = geo.instances as usize * plan.buffer_locations;
    let mut slots: Vec<u32> = (0..n as u32).collect();
    slots.shuffle(rng);
    let stride = shape.mem_stride.max(1);
    let addr = slots.iter().map(|&s| s * stride).collect();
    Layout {
        roles,
        addr,
        mem_words: (n.max(1)) * stride as usize,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn plan(src: &str) -> Plan {
        let test = vkherd_dialects::vulkan::parse_litmus(src).unwrap();
        Plan::new(&vkherd_dialects::vulkan::lower_litmus(&test).unwrap()).unwrap()
    }

    fn shape() -> Shape {
        Shape {
            workgroup_size: 32,
            subgroup_size: 8,
            workgroups_per_group: 3,
            stress_workgroups: 2,
            mem_stride: 4,
        }
    }

    /// Per instance, per thread: (device workgroup, local index).
    fn placements(l: &Layout, geo: &Geometry) -> Vec<Vec<(u32, u32)>> {
        let mut out = vec![vec![(u32::MAX, 0); geo.threads as usize]; geo.instances as usize];
        for gid in 0..geo.invocations() {
            let role = l.roles[2 * gid as usize];
            if role >= bindings::ROLE_TEST {
                let r = role - bindings::ROLE_TEST;
                let (i, t) = (r / geo.threads, r % geo.threads);
                assert_eq!(
                    out[i as usize][t as usize].0,
                    u32::MAX,
                    "one invocation per thread"
                );
                out[i as usize][t as usize] = (
                    gid / geo.shape.workgroup_size,
                    gid % geo.shape.workgroup_size,
                );
            }
        }
        out
    }

    #[test]
    fn every_instance_is_placed_as_its_header_says() {
        let p = plan("VULKAN t\n{ x = 0; y = 0; }\n P0@sg 0, wg 0, qf 0 | P1@sg 1, wg 0, qf 0 | P2@sg 1, wg 0, qf 0 | P3@sg 0, wg 1, qf 0 ;\n st.sc0 x, 1 | ld.sc0 r0, x | ld.sc0 r0, y | st.sc0 y, 1 ;\n");
        let geo = Geometry::new(&p, shape()).unwrap();
        // Group 0: 2 test subgroups (lanes 2) in 4 device subgroups of 8: 2 blocks x 4.
        assert_eq!(geo.pieces, vec![8, 32]);
        assert_eq!(geo.instances, 24);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..5 {
            let l = draw(&p, &geo, true, &mut rng);
            for inst in placements(&l, &geo) {
                let sg = |k: usize| inst[k].1 / 8;
                assert!(
                    inst.iter().all(|&(w, _)| w != u32::MAX),
                    "every thread placed"
                );
                assert_eq!(inst[0].0, inst[1].0);
                assert_eq!(inst[1].0, inst[2].0);
                assert_ne!(inst[0].0, inst[3].0, "different workgroups");
                assert_eq!(sg(1), sg(2), "same subgroup");
                assert_ne!(sg(0), sg(1), "different subgroups");
            }
            let stress = l
                .roles
                .chunks(2)
                .filter(|r| r[0] == bindings::ROLE_STRESS)
                .count();
            assert_eq!(stress, 2 * 32);
            let mut addr = l.addr.clone();
            addr.sort_unstable();
            addr.dedup();
            assert_eq!(addr.len(), 24 * 2, "distinct slots");
            assert!(addr
                .iter()
                .all(|a| a % 4 == 0 && (*a as usize) < l.mem_words));
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_layouts() {
        let p = plan("VULKAN t\n{ x = 0; }\n P0@sg 0, wg 0, qf 0 | P1@sg 0, wg 1, qf 0 ;\n st.sc0 x, 1 | ld.sc0 r0, x ;\n");
        let geo = Geometry::new(&p, shape()).unwrap();
        let a = draw(&p, &geo, false, &mut ChaCha8Rng::seed_from_u64(1));
        let b = draw(&p, &geo, false, &mut ChaCha8Rng::seed_from_u64(1));
        let c = draw(&p, &geo, false, &mut ChaCha8Rng::seed_from_u64(2));
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn a_group_too_big_for_the_workgroup_is_refused() {
        let p = plan("VULKAN t\n{ x = 0; }\n P0@sg 0, wg 0, qf 0 | P1@sg 1, wg 0, qf 0 | P2@sg 2, wg 0, qf 0 ;\n st.sc0 x, 1 | ld.sc0 r0, x | ld.sc0 r1, x ;\n");
        let small = Shape {
            workgroup_size: 16,
            ..shape()
        };
        assert!(matches!(
            Geometry::new(&p, small),
            Err(ObserveError::Unsupported {
                kind: Unsupported::TooManyInvocations {
                    need: 3,
                    have: 2,
                    ..
                },
                ..
            })
        ));
    }
}
