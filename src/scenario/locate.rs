//! Finding where a key path stands in the scenario text, and which key path a byte offset is in.
//!
//! Errors name file, line, column and key path (`pattern[2].rate.spike.peak`). Serde's errors give
//! a byte span; validation gives a key path. This module maps each to the other using the spans
//! the TOML parser keeps.

use std::fmt;
use std::ops::Range;
use toml::de::{DeTable, DeValue};
use toml::Spanned;

/// One step of a key path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seg {
    /// A table key.
    Key(String),
    /// An array index.
    Index(usize),
}

/// A key path such as `pattern[2].rate`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeyPath(pub Vec<Seg>);

impl KeyPath {
    /// The empty path (the whole document).
    #[must_use]
    pub fn root() -> Self {
        KeyPath(Vec::new())
    }

    /// This path extended by a key.
    #[must_use]
    pub fn key(&self, k: &str) -> Self {
        let mut v = self.0.clone();
        v.push(Seg::Key(k.to_string()));
        KeyPath(v)
    }

    /// This path extended by an index.
    #[must_use]
    pub fn index(&self, i: usize) -> Self {
        let mut v = self.0.clone();
        v.push(Seg::Index(i));
        KeyPath(v)
    }
}

impl fmt::Display for KeyPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for s in &self.0 {
            match s {
                Seg::Key(k) => {
                    if !first {
                        write!(f, ".")?;
                    }
                    write!(f, "{k}")?;
                }
                Seg::Index(i) => write!(f, "[{i}]")?,
            }
            first = false;
        }
        if first {
            write!(f, "(document)")?;
        }
        Ok(())
    }
}

/// 1-based line and column of a byte offset.
#[must_use]
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.rfind('\n').map_or(offset, |nl| offset - nl - 1) + 1;
    (line, col)
}

/// Locates key paths in one document. The document is parsed for spans only when a first
/// problem is located: a valid scenario never holds the spanned tree (for a long inline
/// `steps` series, several times the text).
pub struct Locator<'a> {
    text: &'a str,
    doc: std::cell::OnceCell<Option<Spanned<DeTable<'a>>>>,
    /// Byte offset of the start of each line.
    lines: Vec<usize>,
}

impl<'a> Locator<'a> {
    /// Parses `text` for spans (a document that does not parse locates nothing).
    #[must_use]
    pub fn new(text: &'a str) -> Self {
        let lines = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        Self { text, doc: std::cell::OnceCell::new(), lines }
    }

    fn doc(&self) -> Option<&Spanned<DeTable<'a>>> {
        self.doc.get_or_init(|| DeTable::parse(self.text).ok()).as_ref()
    }

    /// 1-based line and column of a byte offset (a binary search: locating many problems in a
    /// long document stays linear).
    fn line_col_at(&self, offset: usize) -> (usize, usize) {
        let line = self.lines.partition_point(|&start| start <= offset).max(1);
        (line, offset - self.lines[line - 1] + 1)
    }

    /// Is the key at `path` written in the document?
    #[must_use]
    pub fn has(&self, path: &KeyPath) -> bool {
        let found = self.span_of(path);
        let mut parent = path.clone();
        parent.0.pop();
        // `span_of` falls back to the nearest ancestor found: the key is there when its span
        // is not its parent's.
        found.is_some() && (parent.0.is_empty() || found != self.span_of(&parent))
    }

    /// The span of the key (for a table entry) or value at `path`; the nearest existing ancestor
    /// when the path does not exist (a missing key is reported at its table).
    #[must_use]
    pub fn span_of(&self, path: &KeyPath) -> Option<Range<usize>> {
        let doc = self.doc()?;
        let mut best = None;
        let mut table: Option<&DeTable<'_>> = Some(doc.get_ref());
        let mut value: Option<&Spanned<DeValue<'_>>> = None;
        for seg in &path.0 {
            match seg {
                Seg::Key(k) => {
                    let t = match (table, value) {
                        (Some(t), None) => t,
                        (_, Some(v)) => match v.get_ref() {
                            DeValue::Table(t) => t,
                            _ => return best,
                        },
                        _ => return best,
                    };
                    let Some((key, v)) = t.iter().find(|(key, _)| key.get_ref().as_ref() == k.as_str()) else {
                        return best;
                    };
                    best = Some(key.span());
                    table = None;
                    value = Some(v);
                }
                Seg::Index(i) => {
                    let Some(v) = value else { return best };
                    let DeValue::Array(a) = v.get_ref() else {
                        return best;
                    };
                    let Some(item) = a.get(*i) else { return best };
                    best = Some(item.span());
                    value = Some(item);
                }
            }
        }
        best
    }

    /// The key path of the last key that starts at or before `span` (TOML spans of tables
    /// cover only their headers, so "the nearest key before the error" is the reliable rule).
    #[must_use]
    pub fn path_at(&self, span: &Range<usize>) -> KeyPath {
        let Some(doc) = self.doc() else {
            return KeyPath::root();
        };
        let mut best: Option<(usize, KeyPath)> = None;
        collect(doc.get_ref(), &KeyPath::root(), span.start, &mut best);
        best.map_or_else(KeyPath::root, |(_, p)| p)
    }

    /// Line and column of a path (1, 1 when it cannot be found).
    #[must_use]
    pub fn line_col_of(&self, path: &KeyPath) -> (usize, usize) {
        self.span_of(path).map_or((1, 1), |s| self.line_col_at(s.start))
    }
}

fn collect(t: &DeTable<'_>, at: &KeyPath, offset: usize, best: &mut Option<(usize, KeyPath)>) {
    for (k, v) in t {
        let path = at.key(k.get_ref());
        for start in [k.span().start, v.span().start] {
            if start <= offset && best.as_ref().is_none_or(|(b, _)| start >= *b) {
                *best = Some((start, path.clone()));
            }
        }
        collect_value(v, &path, offset, best);
    }
}

fn collect_value(v: &Spanned<DeValue<'_>>, at: &KeyPath, offset: usize, best: &mut Option<(usize, KeyPath)>) {
    match v.get_ref() {
        DeValue::Table(t) => collect(t, at, offset, best),
        DeValue::Array(a) => {
            for (i, item) in a.iter().enumerate() {
                let path = at.index(i);
                let start = item.span().start;
                if start <= offset && best.as_ref().is_none_or(|(b, _)| start > *b) {
                    *best = Some((start, path.clone()));
                }
                collect_value(item, &path, offset, best);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str =
        "[scenario]\nduration = \"1h\"\n\n[[pattern]]\nname = \"a\"\n\n[[pattern]]\nname = \"b\"\nrate = { spike = { peak = 5 } }\n";

    #[test]
    fn finds_nested_paths() {
        let l = Locator::new(DOC);
        let p = KeyPath::root().key("pattern").index(1).key("rate").key("spike").key("peak");
        assert_eq!(p.to_string(), "pattern[1].rate.spike.peak");
        assert_eq!(l.line_col_of(&p), (9, 20));
        assert_eq!(l.line_col_of(&KeyPath::root().key("scenario").key("duration")), (2, 1));
    }

    #[test]
    fn maps_offsets_back_to_paths() {
        let l = Locator::new(DOC);
        let off = DOC.find("5 }").unwrap();
        assert_eq!(l.path_at(&(off..off + 1)).to_string(), "pattern[1].rate.spike.peak");
    }

    #[test]
    fn missing_keys_fall_back_to_their_table() {
        let l = Locator::new(DOC);
        let p = KeyPath::root().key("pattern").index(0).key("rate");
        assert_eq!(l.line_col_of(&p).0, 4);
    }
}
