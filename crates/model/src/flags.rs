//! Event flags: membership of an event in the Alloy model's sets (`sig Exec { W, R, F, ... }`).
//!
//! Bits 0 to 25 are the Vulkan model's sets, among them the ones every dialect shares
//! (`R`, `W`, `F`, `A`, `ACQ`, `REL`, `CBAR`: the cat base names of [`crate::Statics`]).
//! A dialect's lowering may set other bits too: they mean what its base sets say
//! ([`crate::Dialect::bases`]), and only to its own tests.

/// A set of Alloy event sets, as a bit mask.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Flags(pub u64);

macro_rules! flag_consts {
    ($($name:ident = $bit:expr;)*) => {
        impl Flags { $(pub const $name: Flags = Flags(1 << $bit);)* }
        /// Every named flag with its Alloy set name, for debugging output.
        pub const FLAG_NAMES: &[(Flags, &str)] = &[$((Flags::$name, stringify!($name)),)*];
    };
}

flag_consts! {
    R = 0; W = 1; F = 2; A = 3; ACQ = 4; REL = 5;
    SC0 = 6; SC1 = 7; SC2 = 8; SC3 = 9;
    SEMSC0 = 10; SEMSC1 = 11; SEMSC2 = 12; SEMSC3 = 13;
    SCOPESG = 14; SCOPEWG = 15; SCOPEQF = 16; SCOPEDEV = 17;
    CBAR = 18; AV = 19; VIS = 20; SEMAV = 21; SEMVIS = 22;
    AVDEVICE = 23; VISDEVICE = 24; NONPRIV = 25;
}

impl Flags {
    pub const NONE: Flags = Flags(0);

    /// `SCi` for storage class i.
    pub fn sc(i: u8) -> Flags {
        Flags(Flags::SC0.0 << i)
    }

    /// `SEMSCi` for storage class i.
    pub fn semsc(i: u8) -> Flags {
        Flags(Flags::SEMSC0.0 << i)
    }

    /// True if every flag of `other` is set.
    pub fn has(self, other: Flags) -> bool {
        self.0 & other.0 == other.0
    }

    /// True if some flag of `other` is set.
    pub fn any(self, other: Flags) -> bool {
        self.0 & other.0 != 0
    }
}

impl std::ops::BitOr for Flags {
    type Output = Flags;
    fn bitor(self, rhs: Flags) -> Flags {
        Flags(self.0 | rhs.0)
    }
}

impl std::ops::BitOrAssign for Flags {
    fn bitor_assign(&mut self, rhs: Flags) {
        self.0 |= rhs.0;
    }
}
