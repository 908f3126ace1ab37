//! Compiling an explorer's rules into a [`Kernel`]: each condition to its cheapest test,
//! each executer to a store or a draw, the count planes the tests read, and the per-code
//! masks of the rules that may fire.

use super::*;

/// A Neighbourhood estimator's `(nbh, weights)`.
fn count(e: &Estimator) -> Option<(usize, &[u32; 256])> {
    match e {
        Estimator::Neighborhood { nbh, weights, .. } => Some((*nbh, weights)),
        _ => None,
    }
}

impl Kernel {
    /// Compiles the rules of `ex`; `None` when its region wraps (the interpreter wraps its
    /// reads and writes) or it has more than [`MAX_RULES`] rules.
    pub fn new(ex: &Explorer, nbhs: &[Nbh]) -> Option<Kernel> {
        if ex.wrap || ex.rules.len() > MAX_RULES {
            return None;
        }
        let mut planes: Vec<PlaneSpec> = Vec::new();
        let mut compile = |c: &Condition| -> Test {
            let number = |e: &Estimator| match e {
                Estimator::Number(v) => Some(*v),
                _ => None,
            };
            let (l, r) = (&c.left, &c.right);
            if let (Some(a), Some(b)) = (number(l), number(r)) {
                return Test::Const(c.op.holds(a, b));
            }
            let counted = match (count(l), number(r), number(l), count(r)) {
                (Some(n), Some(t), _, _) => Some((n, c.op, t)),
                (_, _, Some(t), Some(n)) => Some((n, c.op.flip(), t)),
                _ => None,
            };
            if let Some(((nbh, weights), op, t)) = counted {
                let pred = Pred::new(op, t);
                if nbhs[nbh].offsets == [(0, 0)] {
                    let mut bits = [0u64; 4];
                    for (code, &w) in weights.iter().enumerate() {
                        if pred.holds(w) {
                            bits[code / 64] |= 1 << (code % 64);
                        }
                    }
                    return Test::Cell(bits);
                }
                return match pred {
                    Pred::Always(b) => Test::Const(b),
                    Pred::Range { lo, hi, negate } => {
                        let spec = PlaneSpec::new(nbh, &nbhs[nbh].offsets, weights);
                        let plane = match planes.iter().position(|p| *p == spec) {
                            Some(k) => k,
                            None => {
                                planes.push(spec);
                                planes.len() - 1
                            }
                        };
                        Test::Plane {
                            plane,
                            lo,
                            width: hi - lo,
                            negate,
                        }
                    }
                };
            }
            match (l, number(r), number(l), r) {
                (Estimator::Random, Some(t), _, _) => Test::Draw {
                    t,
                    op: c.op,
                    random_left: true,
                },
                (_, _, Some(t), Estimator::Random) => Test::Draw {
                    t,
                    op: c.op,
                    random_left: false,
                },
                _ => Test::General(Box::new(c.clone())),
            }
        };
        let mut by_code = vec![0u64; 256];
        let mut rules = Vec::with_capacity(ex.rules.len());
        for (i, rule) in ex.rules.iter().enumerate() {
            let tests: Vec<Test> = rule.conditions.iter().map(&mut compile).collect();
            let pure = tests
                .iter()
                .take_while(|t| matches!(t, Test::Const(_) | Test::Cell(_) | Test::Plane { .. }))
                .count();
            // Codes for which the leading `self` tests and constants all hold.
            let mut codes = [u64::MAX; 4];
            for t in &tests[..pure] {
                match t {
                    Test::Cell(bits) => (0..4).for_each(|j| codes[j] &= bits[j]),
                    Test::Const(false) => codes = [0; 4],
                    _ => {}
                }
            }
            for (code, slot) in by_code.iter_mut().enumerate() {
                if codes[code / 64] >> (code % 64) & 1 != 0 {
                    *slot |= 1 << i;
                }
            }
            let writes: Vec<Write> = rule
                .executers
                .iter()
                .map(
                    |e| match (nbhs[e.nbh].offsets == [(0, 0)], e.choices.len()) {
                        (true, 1) => Write::Fixed(e.choices[0]),
                        (true, _) => Write::Choice(e.choices.clone()),
                        _ => Write::General(e.clone()),
                    },
                )
                .collect();
            rules.push(KRule {
                planes: tests[..pure]
                    .iter()
                    .filter_map(|t| match *t {
                        Test::Plane {
                            plane,
                            lo,
                            width,
                            negate,
                        } => Some(PlaneTest {
                            plane: plane as u32,
                            lo,
                            width,
                            negate,
                        }),
                        _ => None,
                    })
                    .collect(),
                rest: tests[pure..].to_vec(),
                only: match writes[..] {
                    [Write::Fixed(v)] => Some(v),
                    _ => None,
                },
                writes,
            });
        }
        let progress_est = |e: &Estimator| matches!(e, Estimator::Percent | Estimator::CPercent);
        let in_heuristics = match &ex.kind {
            ExplorerKind::Greedy { heuristics } | ExplorerKind::WideHeur { heuristics } => {
                heuristics.iter().any(progress_est)
            }
            _ => false,
        };
        let progress = in_heuristics
            || ex
                .rules
                .iter()
                .flat_map(|r| &r.conditions)
                .any(|c| progress_est(&c.left) || progress_est(&c.right));
        let simple = rules
            .iter()
            .all(|r| r.rest.is_empty() && r.planes.len() <= 1);
        let (mut first, mut candidates) = (vec![0u32], Vec::new());
        if simple {
            for &mask in &by_code {
                let mut m = mask;
                while m != 0 {
                    let i = m.trailing_zeros();
                    m &= m - 1;
                    let test = rules[i as usize].planes.first().copied();
                    candidates.push(Candidate {
                        test: test.unwrap_or(PlaneTest {
                            plane: 0,
                            lo: 0,
                            width: 0,
                            negate: false,
                        }),
                        always: test.is_none(),
                        rule: i,
                    });
                }
                first.push(candidates.len() as u32);
            }
        }
        let one = if simple && !planes.is_empty() && first.windows(2).all(|w| w[1] - w[0] <= 1) {
            (0..256)
                .map(|code| match candidates.get(first[code] as usize) {
                    Some(c) if first[code + 1] > first[code] => match c.always {
                        false => *c,
                        true => Candidate {
                            test: PlaneTest {
                                plane: 0,
                                lo: 0,
                                width: u32::MAX,
                                negate: false,
                            },
                            always: false,
                            rule: c.rule,
                        },
                    },
                    _ => Candidate {
                        test: PlaneTest {
                            plane: 0,
                            lo: 0,
                            width: u32::MAX,
                            negate: true,
                        },
                        always: false,
                        rule: 0,
                    },
                })
                .collect()
        } else {
            Vec::new()
        };
        if let [a, b] = &mut planes[..] {
            a.pair(b);
        }
        let mut lanes = byte_scan::lanes(&one);
        if lanes.len() > byte_scan::MAX_LANES {
            lanes.clear();
        }
        // A code on which no rule fires lets paired passes keep a padded code plane, whose
        // rows a scan runs through without stopping at the region's edge ([`byte_scan`]).
        if let (false, Some(code)) = (lanes.is_empty(), byte_scan::idle_code(&one)) {
            planes.iter_mut().for_each(|p| p.set_scan_code(code));
        }
        let direct = byte_scan::direct_writes(&planes, &one, &lanes, |i| rules[i as usize].only);
        let cells = byte_scan::cell_tests(&lanes);
        Some(Kernel {
            direct,
            cells,
            rules,
            by_code,
            simple,
            first,
            candidates,
            one,
            lanes,
            planes,
            progress,
        })
    }
}
