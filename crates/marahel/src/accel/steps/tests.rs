//! The step loops' draw tests against the interpreter's float comparison.

use super::*;

/// `random op t` as the interpreter evaluates it, for the draw `x`.
fn float(op: Op, t: f64, x: u64) -> bool {
    op.holds((x >> 11) as f64 * (1.0 / (1u64 << 53) as f64), t)
}

#[test]
fn draw_tests_match_the_float_comparison_at_every_boundary() {
    let ts = [
        -1.0,
        0.0,
        0.15,
        0.3,
        0.5,
        0.7,
        1.0 - 1.0 / (1u64 << 53) as f64,
        1.0,
        2.0,
    ];
    let ops = [Op::Gt, Op::Lt, Op::Ge, Op::Le, Op::Eq, Op::Ne];
    for t in ts {
        // Draws around the threshold's 53-bit value and at both ends.
        let b = (t.clamp(0.0, 1.0) * (1u64 << 53) as f64) as u64;
        let mut xs = vec![
            0,
            1,
            0x7ff,
            0x800,
            u64::MAX,
            u64::MAX - 0x7ff,
            u64::MAX - 0x800,
        ];
        for bb in [b.saturating_sub(1), b, b + 1] {
            for low in [0, 1, 0x7fe, 0x7ff] {
                xs.push(bb << 11 | low);
                xs.push((bb << 11 | low).wrapping_sub(0x800));
            }
        }
        for op in ops {
            let (bits, raw) = (Span::draw(op, t), Span::raw_draw(op, t));
            for &x in &xs {
                let want = float(op, t, x);
                assert_eq!(bits.holds(x >> 11), want, "{op:?} {t} bits of {x:#x}");
                assert_eq!(raw.is_some_and(|r| r.holds(x)), want, "{op:?} {t} {x:#x}");
            }
        }
    }
}
