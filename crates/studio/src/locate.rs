//! Where a JSON path is in a JSON text: the line of `explorers[2].rules[0]` in the script the
//! user typed, so the editor can point at it.
//!
//! One pass over the text with an explicit stack (no recursion on nesting depth). The path
//! asked for is split into its steps once; each frame of the stack only remembers whether it
//! lies on that path, so every value costs the same however deep or long its path, and
//! nothing is allocated per value. The answer is the line of the value whose path is the
//! longest prefix of the one asked for (the first such value).

/// One step of a path: a key, or an array index.
#[derive(Debug, PartialEq, Eq)]
enum Step<'a> {
    Key(&'a [u8]),
    Index(usize),
}

/// The steps of `a.b[2].c`: `a`, `b`, 2, `c`. A malformed index is a key that matches nothing.
fn steps(path: &str) -> Vec<Step<'_>> {
    let mut out = Vec::new();
    if path.is_empty() {
        return out;
    }
    for part in path.split('.') {
        let (key, mut rest) = part.split_at(part.find('[').unwrap_or(part.len()));
        if !key.is_empty() || rest.is_empty() {
            out.push(Step::Key(key.as_bytes()));
        }
        while let Some(inner) = rest.strip_prefix('[') {
            let (index, after) = inner.split_once(']').unwrap_or((inner, ""));
            out.push(match index.parse() {
                Ok(i) => Step::Index(i),
                Err(_) => Step::Key(b"\0[not an index]"),
            });
            rest = after;
        }
    }
    out
}

/// What the scanner is inside of, and whether its path is a prefix of the one asked for.
enum Frame {
    /// An object; `key` is the byte range of the key whose value comes next.
    Object {
        on_path: bool,
        key: Option<(usize, usize)>,
    },
    /// An array; `next` is the index of the next element.
    Array { on_path: bool, next: usize },
}

/// The 1-based line where the value at `path` (`a.b[2].c`, as the generators write paths)
/// starts in `text`; for a path that does not exist, the line of its longest existing
/// prefix. `None` when `text` has no JSON value at all.
pub fn line_of(text: &str, path: &str) -> Option<usize> {
    let wanted = steps(path);
    let bytes = text.as_bytes();
    let mut stack: Vec<Frame> = Vec::new();
    let mut best: Option<(usize, usize)> = None; // (steps matched, line)
    let mut line = 1usize;
    let mut i = 0usize;
    // A value starts at the current place: whether it is on the path (and its line noted).
    let value_starts = |stack: &mut Vec<Frame>, best: &mut Option<(usize, usize)>, line| {
        let depth = stack.len();
        let on_path = match stack.last_mut() {
            None => true,
            Some(Frame::Object { on_path, key }) => {
                *on_path
                    && matches!(wanted.get(depth - 1), Some(Step::Key(k))
                        if key.is_some_and(|(a, b)| &bytes[a..b] == *k))
            }
            Some(Frame::Array { on_path, next }) => {
                *next += 1;
                *on_path && wanted.get(depth - 1) == Some(&Step::Index(*next - 1))
            }
        };
        if on_path && best.is_none_or(|(d, _)| depth > d) {
            *best = Some((depth, line));
        }
        on_path
    };
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'\n' => line += 1,
            b'"' => {
                let end = string_end(bytes, i);
                let is_key = matches!(stack.last(), Some(Frame::Object { key: None, .. }));
                if is_key {
                    if let Some(Frame::Object { key, .. }) = stack.last_mut() {
                        *key = Some((i + 1, end.saturating_sub(1).max(i + 1)));
                    }
                } else {
                    value_starts(&mut stack, &mut best, line);
                }
                line += bytes[i..end].iter().filter(|&&b| b == b'\n').count();
                i = end;
                continue;
            }
            b'{' | b'[' => {
                let on_path = value_starts(&mut stack, &mut best, line);
                stack.push(if c == b'{' {
                    Frame::Object { on_path, key: None }
                } else {
                    Frame::Array { on_path, next: 0 }
                });
            }
            b'}' | b']' => {
                stack.pop();
            }
            b',' => {
                if let Some(Frame::Object { key, .. }) = stack.last_mut() {
                    *key = None;
                }
            }
            b':' | b' ' | b'\t' | b'\r' => {}
            _ => {
                // A number, true, false or null: runs to the next delimiter.
                value_starts(&mut stack, &mut best, line);
                while i < bytes.len() && !b",}]\n \t\r".contains(&bytes[i]) {
                    i += 1;
                }
                continue;
            }
        }
        if best.is_some_and(|(d, _)| d == wanted.len()) {
            break;
        }
        i += 1;
    }
    best.map(|(_, l)| l)
}

/// Just past the closing quote of the string starting at `start` (the text's end if it has
/// none).
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut j = start + 1;
    while j < bytes.len() && bytes[j] != b'"' {
        j += if bytes[j] == b'\\' { 2 } else { 1 };
    }
    (j + 1).min(bytes.len())
}

#[cfg(test)]
mod tests {
    use super::line_of;

    const SCRIPT: &str = "{\n  \"metadata\": {\"min\": \"10x10\",\n    \"max\": \"20x20\"},\n  \"explorers\": [\n    {\"type\": \"narrow\",\n     \"rules\": [\"a\",\n       \"b\"]},\n    {\"type\": \"wide\", \"rules\": []}\n  ]\n}";

    #[test]
    fn finds_keys_and_array_elements() {
        assert_eq!(line_of(SCRIPT, "metadata.max"), Some(3));
        assert_eq!(line_of(SCRIPT, "metadata.min"), Some(2));
        assert_eq!(line_of(SCRIPT, "explorers[0].rules[1]"), Some(7));
        assert_eq!(line_of(SCRIPT, "explorers[1].type"), Some(8));
    }

    #[test]
    fn a_missing_path_gets_its_longest_existing_prefix() {
        assert_eq!(line_of(SCRIPT, "explorers[1].parameters.tiles"), Some(8));
        assert_eq!(line_of(SCRIPT, "explorers[0].rules[9]"), Some(6));
        assert_eq!(line_of(SCRIPT, "nowhere"), Some(1));
        // `metadata.m` is not a prefix of `metadata.max` in path terms.
        assert_eq!(line_of(SCRIPT, "metadata.m"), Some(2));
    }

    #[test]
    fn paths_split_into_keys_and_indices() {
        use super::{Step, steps};
        assert_eq!(steps(""), vec![]);
        assert_eq!(
            steps("a.b[2][3].c"),
            vec![
                Step::Key(b"a"),
                Step::Key(b"b"),
                Step::Index(2),
                Step::Index(3),
                Step::Key(b"c")
            ]
        );
        assert_eq!(steps("[1]"), vec![Step::Index(1)]);
        // An array at the root, and a path into it.
        assert_eq!(line_of("[1,\n 2,\n [3,\n 4]]", "[2][1]"), Some(4));
        assert_eq!(line_of("[1,\n 2]", ""), Some(1));
    }

    #[test]
    fn the_first_of_equal_prefixes_and_full_matches_win() {
        let text = "{\"a\": {\"x\": 1},\n \"a\": {\"y\": 2},\n \"b\": [\n {\"c\": 1}]}";
        assert_eq!(line_of(text, "a.y"), Some(2));
        assert_eq!(line_of(text, "a.z"), Some(1));
        assert_eq!(line_of(text, "b[0].c"), Some(4));
        assert_eq!(line_of(text, "b[1].c"), Some(3));
    }

    #[test]
    fn strings_with_braces_and_escapes_do_not_confuse_it() {
        let text = "{\"a\": \"}{[\\\"\",\n \"b\": 1}";
        assert_eq!(line_of(text, "b"), Some(2));
        assert_eq!(line_of("", "a"), None);
    }
}
