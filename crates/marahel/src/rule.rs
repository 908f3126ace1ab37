//! Rules `conditions -> executers`: the compiled form. Their text is parsed when the script
//! is compiled (`compile::rules`).
//!
//! Grammar (whitespace around tokens is ignored):
//! ```text
//! rule      := [cond ("," cond)*] "->" exec ("," exec)*
//! cond      := est [op est]           ; a lone estimator: nbh(..) means "all cells match",
//!                                     ;   anything else means "> 0"
//! op        := ">=" | "<=" | "==" | "!=" | ">" | "<"
//! est       := NBH "(" list ")" | "dist(" list ")" | NUMBER | list
//!            | "random" | "noise" | "noiseN" | "percent" | "cpercent" | "rpercent"
//!            | ("minDist" | "maxDist" | "avgDist") "(" [NBH "," list ["," list] | list] ")"
//! exec      := NBH "(" list ")"
//! list      := item ("|" item)* ; item := NAME [":" WEIGHT]
//! NAME      := an entity | "any" | "entity" | "unknown" | "out"
//! ```
//! An executer's list may not name `any` or `out` (a cell cannot be set to "outside the
//! region", and `any` includes `unknown`).

use crate::engine::Ctx;
use crate::estimator::Estimator;
use crate::executer::Executer;

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// `>`
    Gt,
    /// `<`
    Lt,
    /// `>=`
    Ge,
    /// `<=`
    Le,
    /// `==`
    Eq,
    /// `!=`
    Ne,
}

impl Op {
    #[inline]
    /// Whether `a op b` holds.
    pub fn holds(self, a: f64, b: f64) -> bool {
        match self {
            Op::Gt => a > b,
            Op::Lt => a < b,
            Op::Ge => a >= b,
            Op::Le => a <= b,
            Op::Eq => a == b,
            Op::Ne => a != b,
        }
    }

    /// The operator with its sides swapped: `a op b` is `b op.flip() a`.
    pub fn flip(self) -> Op {
        match self {
            Op::Gt => Op::Lt,
            Op::Lt => Op::Gt,
            Op::Ge => Op::Le,
            Op::Le => Op::Ge,
            o => o,
        }
    }
}

/// `left op right`; a lone estimator is compiled into this form.
#[derive(Clone, Debug, PartialEq)]
pub struct Condition {
    /// Left side (evaluated first).
    pub left: Estimator,
    /// The comparison.
    pub op: Op,
    /// Right side.
    pub right: Estimator,
}

/// A compiled rule: when every condition holds, every executer runs.
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    /// Conditions, evaluated left to right with short-circuit.
    pub conditions: Vec<Condition>,
    /// Executers, applied left to right.
    pub executers: Vec<Executer>,
}

impl Rule {
    /// Applies the rule at `(x, y)` if its conditions hold; returns whether it fired.
    #[inline]
    pub fn fire(&self, ctx: &mut Ctx, x: usize, y: usize) -> bool {
        for c in &self.conditions {
            let a = c.left.eval(ctx, x, y);
            let b = c.right.eval(ctx, x, y);
            if !c.op.holds(a, b) {
                return false;
            }
        }
        for e in &self.executers {
            e.apply(ctx, x, y);
        }
        true
    }
}
