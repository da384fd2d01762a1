//! Names as a reader sees them: invisible characters refused, misspelt keys answered with the
//! nearest known one.

/// serde's "unknown field `itm_bytes`, expected one of `name`, `item_bytes`, ..." (or an
/// unknown variant) with the nearest expected name suggested: "; did you mean `item_bytes`?".
pub(super) fn did_you_mean(message: &str) -> String {
    let unknown = ["unknown field `", "unknown variant `"].iter().find_map(|p| message.strip_prefix(p)).and_then(|r| r.split('`').next());
    let Some(given) = unknown else { return message.to_string() };
    let expected = message.split("expected one of ").nth(1).or_else(|| message.split("expected ").nth(1)).unwrap_or("");
    let best = expected
        .split('`')
        .skip(1)
        .step_by(2)
        .map(|name| (edit_distance(given, name), name))
        .filter(|(d, name)| *d <= (name.chars().count() / 3).max(2))
        .min_by_key(|(d, _)| *d);
    match best {
        Some((_, name)) => format!("{message}; did you mean `{name}`?"),
        None => message.to_string(),
    }
}

/// Levenshtein distance between two names, by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// A character a reader cannot see for what it is, refused in names and cleaned from every
/// name, note and message ddbsim shows: control characters, the invisible format characters
/// of [`is_format_char`], the line and paragraph separators (U+2028, U+2029), the default
/// ignorable fillers and joiners (U+034F, U+115F, U+1160, U+17B4, U+17B5, U+3164, U+FFA0, the
/// variation selectors, U+1BCA0–U+1BCA3), private-use characters and noncharacters. The one
/// definition of a printable name.
#[must_use]
pub(crate) fn is_unprintable(c: char) -> bool {
    let u = u32::from(c);
    c.is_control()
        || is_format_char(c)
        || matches!(
            u,
            0x2028 | 0x2029 | 0x034F | 0x115F | 0x1160 | 0x17B4 | 0x17B5 | 0x3164 | 0xFFA0 | 0xFE00..=0xFE0F | 0xE0100..=0xE01EF
                | 0x1BCA0..=0x1BCA3
                | 0xE000..=0xF8FF
                | 0xF0000..=0xFFFFD
                | 0x100000..=0x10FFFD
                | 0xFDD0..=0xFDEF
        )
        || (u & 0xFFFE) == 0xFFFE
}

/// `s` as a reader may be shown it: every unprintable character ([`is_unprintable`]) a space,
/// and at most `max` characters, an ellipsis marking a cut.
#[must_use]
pub(crate) fn shown(s: &str, max: usize) -> String {
    let mut out: String = s.chars().take(max).map(|c| if is_unprintable(c) { ' ' } else { c }).collect();
    if s.chars().nth(max).is_some() {
        out.push('…');
    }
    out
}

/// Unicode's invisible format characters (general category Cf) that change how text reads:
/// the soft hyphen, the Arabic letter mark, the Mongolian vowel separator, zero-width and
/// bidirectional marks, embeddings, overrides and isolates, word joiners and invisible
/// operators, the byte order mark, interlinear annotation marks and tag characters.
pub(crate) fn is_format_char(c: char) -> bool {
    matches!(
        u32::from(c),
        0x00AD | 0x061C | 0x180E | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x2064 | 0x2066..=0x206F | 0xFEFF | 0xFFF9..=0xFFFB | 0xE0001 | 0xE0020..=0xE007F
    )
}

#[cfg(test)]
mod tests {
    /// Issue 59, item 12: U+2028, U+3164, U+034F and U+E000 passed as names; they and their
    /// kin are unprintable, letters of every script are not.
    #[test]
    fn unprintable_characters_are_one_set() {
        for c in
            ['\u{2028}', '\u{2029}', '\u{3164}', '\u{034F}', '\u{E000}', '\u{202E}', '\u{200B}', '\n', '\u{FE0F}', '\u{FFFF}', '\u{10FFFD}']
        {
            assert!(super::is_unprintable(c), "U+{:04X}", u32::from(c));
        }
        for c in ['a', 'é', 'ß', '表', 'д', '-', '_', '.', ' ', '\u{1F600}'] {
            assert!(!super::is_unprintable(c), "U+{:04X}", u32::from(c));
        }
    }
}
