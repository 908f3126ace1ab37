//! Quoting user input in messages: short, printable excerpts.
//!
//! Errors name what was wrong, but a hostile or merely large input (a 200 KB rule string, a
//! binary file passed as a template) must not turn one error line into megabytes. Every
//! crate quotes input through [`excerpt`], so a message quotes at most [`EXCERPT_CHARS`]
//! characters of it, with control characters escaped.
//!
//! ```
//! use grid_core::text::excerpt;
//! assert_eq!(excerpt("wall"), "\"wall\"");
//! let long = "x".repeat(10_000);
//! assert!(excerpt(&long).len() < 100);
//! assert!(excerpt(&long).ends_with("... (10000 characters)"));
//! assert_eq!(excerpt("a\nb"), "\"a\\nb\"");
//! ```

use std::fmt::Write;

/// The most characters of an input that [`excerpt`] quotes.
pub const EXCERPT_CHARS: usize = 60;

/// `text` quoted for a message: at most [`EXCERPT_CHARS`] characters, control characters
/// and quotes escaped as Rust's debug formatting does, and the full length named when it
/// was cut.
pub fn excerpt(text: &str) -> String {
    excerpt_with(text, EXCERPT_CHARS)
}

/// [`excerpt`] with a chosen limit of `max` characters.
pub fn excerpt_with(text: &str, max: usize) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(max).collect();
    let mut out = String::with_capacity(head.len() + 24);
    let _ = write!(out, "{head:?}");
    if chars.next().is_some() {
        let _ = write!(out, "... ({} characters)", text.chars().count());
    }
    out
}

/// How a JSON value's type is named in messages: `null`, `a boolean`, `a number`, `a string`,
/// `an array`, `an object`.
pub fn json_kind(value: &serde_json::Value) -> &'static str {
    use serde_json::Value;
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_quoted_whole() {
        assert_eq!(excerpt("abc"), "\"abc\"");
        assert_eq!(excerpt(""), "\"\"");
    }

    #[test]
    fn long_text_is_cut_at_the_limit_on_a_char_boundary() {
        let text = "é".repeat(500);
        let e = excerpt(&text);
        assert_eq!(e.matches('é').count(), EXCERPT_CHARS);
        assert!(e.ends_with("... (500 characters)"), "{e}");
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(excerpt("\u{0}\t\""), "\"\\0\\t\\\"\"");
    }

    #[test]
    fn json_kinds_are_named_with_their_article() {
        assert_eq!(json_kind(&serde_json::json!([1])), "an array");
        assert_eq!(json_kind(&serde_json::json!(null)), "null");
        assert_eq!(json_kind(&serde_json::json!(2.5)), "a number");
    }

    #[test]
    fn chosen_limit() {
        assert_eq!(excerpt_with("abcdef", 3), "\"abc\"... (6 characters)");
    }
}
