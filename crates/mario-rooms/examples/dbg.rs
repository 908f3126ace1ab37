//! debug
fn main() {
    let p = std::env::args().nth(1).unwrap();
    let t = std::fs::read_to_string(&p).unwrap();
    let l = mario_rooms::MarioLevel::parse(&p, &t).unwrap();
    let (r, tiles) = mario_rooms::explore(&l);
    println!("{}", r.summary());
    let mut rows: Vec<Vec<u8>> = (0..l.height()).map(|y| l.row(y).to_vec()).collect();
    for (x, y) in tiles {
        rows[y][x] = b'*';
    }
    let lo = std::env::args().nth(2).map_or(0, |v| v.parse().unwrap());
    for r in rows {
        println!(
            "{}",
            String::from_utf8_lossy(&r[lo..(lo + 60).min(r.len())])
        );
    }
}
