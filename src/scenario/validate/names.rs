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
