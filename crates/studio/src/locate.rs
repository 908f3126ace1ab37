//! Where a JSON path is in a JSON text: the line of `explorers[2].rules[0]` in the script the
//! user typed, so the editor can point at it.
//!
//! One pass over the text with an explicit stack (no recursion on nesting depth), keeping the
//! line of the value whose path is the longest prefix of the one asked for.

/// What the scanner is inside of.
enum Frame {
    /// An object at `path`; `key` is the key whose value comes next.
    Object { path: String, key: Option<String> },
    /// An array at `path`; `next` is the index of the next element.
    Array { path: String, next: usize },
}

/// The 1-based line where the value at `path` (`a.b[2].c`, as the generators write paths)
/// starts in `text`; for a path that does not exist, the line of its longest existing
/// prefix. `None` when `text` has no JSON value at all.
pub fn line_of(text: &str, path: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut stack: Vec<Frame> = Vec::new();
    let mut best: Option<(usize, usize)> = None; // (length of the matching prefix, line)
    let mut line = 1usize;
    let mut i = 0usize;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'\n' => line += 1,
            b'"' => {
                let (end, s) = string_at(bytes, i);
                let is_key = matches!(stack.last(), Some(Frame::Object { key: None, .. }));
                if is_key {
                    if let Some(Frame::Object { key, .. }) = stack.last_mut() {
                        *key = Some(s);
                    }
                } else {
                    consider(&mut best, &value_path(&mut stack), path, line);
                }
                line += text[i..end].matches('\n').count();
                i = end;
                continue;
            }
            b'{' | b'[' => {
                let p = value_path(&mut stack);
                consider(&mut best, &p, path, line);
                stack.push(if c == b'{' {
                    Frame::Object { path: p, key: None }
                } else {
                    Frame::Array { path: p, next: 0 }
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
                consider(&mut best, &value_path(&mut stack), path, line);
                while i < bytes.len() && !b",}]\n \t\r".contains(&bytes[i]) {
                    i += 1;
                }
                continue;
            }
        }
        i += 1;
    }
    best.map(|(_, l)| l)
}

/// The path of the value starting now; advances the array index.
fn value_path(stack: &mut [Frame]) -> String {
    match stack.last_mut() {
        None => String::new(),
        Some(Frame::Object { path, key }) => {
            let k = key.as_deref().unwrap_or("");
            if path.is_empty() {
                k.to_string()
            } else {
                format!("{path}.{k}")
            }
        }
        Some(Frame::Array { path, next }) => {
            *next += 1;
            format!("{path}[{}]", *next - 1)
        }
    }
}

fn consider(best: &mut Option<(usize, usize)>, here: &str, wanted: &str, line: usize) {
    let prefix = wanted == here
        || here.is_empty()
        || (wanted.starts_with(here) && matches!(wanted.as_bytes()[here.len()], b'.' | b'['));
    if prefix && best.is_none_or(|(len, _)| here.len() > len) {
        *best = Some((here.len(), line));
    }
}

/// The end (just past the closing quote) and raw content of the string starting at `start`.
fn string_at(bytes: &[u8], start: usize) -> (usize, String) {
    let mut j = start + 1;
    while j < bytes.len() && bytes[j] != b'"' {
        j += if bytes[j] == b'\\' { 2 } else { 1 };
    }
    let end = (j + 1).min(bytes.len());
    let content = String::from_utf8_lossy(&bytes[start + 1..j.min(bytes.len())]).into_owned();
    (end, content)
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
    fn strings_with_braces_and_escapes_do_not_confuse_it() {
        let text = "{\"a\": \"}{[\\\"\",\n \"b\": 1}";
        assert_eq!(line_of(text, "b"), Some(2));
        assert_eq!(line_of("", "a"), None);
    }
}
