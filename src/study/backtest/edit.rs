//! Edits of a scenario's text: a key of a section set to a value, the rest of the file (its
//! comments, its order) kept as the user wrote it. `backtest --calibrate` writes the values it
//! fitted this way.

/// A section of a scenario file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Section {
    /// `[table]`.
    Table,
    /// `[keys.NAME]`.
    Key(String),
    /// The `[[gsi]]` whose `name` is this.
    Gsi(String),
    /// `[client]`.
    Client,
    /// The `[[pattern]]` whose `name` is this.
    Pattern(String),
}

impl Section {
    /// The header that starts the section where the file has none (an index's cannot be
    /// written without its other keys).
    fn header(&self) -> Option<String> {
        match self {
            Section::Table => Some("[table]".into()),
            Section::Key(name) => Some(format!("[keys.{name}]")),
            Section::Gsi(_) | Section::Pattern(_) => None,
            Section::Client => Some("[client]".into()),
        }
    }
}

/// One edit: `key = value` in `section` (replacing the key's line, or added after the header).
#[derive(Clone, Debug, PartialEq)]
pub struct Edit {
    /// Where.
    pub section: Section,
    /// The key.
    pub key: &'static str,
    /// The value as TOML.
    pub value: String,
}

/// A TOML string, quoted.
pub(super) fn quoted(s: &str) -> String {
    serde_json::to_string(s).expect("a string serialises")
}

/// The line is `key = ...` (not a longer key that starts with it).
fn sets(line: &str, key: &str) -> bool {
    line.trim_start().strip_prefix(key).is_some_and(|rest| rest.trim_start().starts_with('='))
}

/// The line is a section header.
fn is_header(line: &str) -> bool {
    line.trim_start().starts_with('[')
}

/// The lines `[start, end)` of `section` in `lines`: from its header to the next header.
fn range(lines: &[String], section: &Section) -> Option<(usize, usize)> {
    let end_of = |start: usize| (start + 1..lines.len()).find(|&i| is_header(&lines[i])).unwrap_or(lines.len());
    for (i, l) in lines.iter().enumerate() {
        let t = l.trim();
        let hit = match section {
            Section::Table => t == "[table]",
            Section::Client => t == "[client]",
            Section::Key(name) => t == format!("[keys.{name}]") || t == format!("[keys.{}]", quoted(name)),
            Section::Gsi(name) | Section::Pattern(name) => {
                t == if matches!(section, Section::Gsi(_)) { "[[gsi]]" } else { "[[pattern]]" }
                    && lines[i + 1..end_of(i)].iter().any(|x| {
                        sets(x, "name")
                            && x.split_once('=').is_some_and(|(_, v)| {
                                let v = v.split('#').next().unwrap_or("").trim();
                                v == quoted(name) || v == format!("'{name}'")
                            })
                    })
            }
        };
        if hit {
            return Some((i, end_of(i)));
        }
    }
    None
}

/// `source` with every edit applied: a key's line replaced where the section sets it, else
/// added after the section's header; a section the file lacks is added at its end (an index
/// the file lacks is left out).
#[must_use]
pub fn apply(source: &str, edits: &[Edit]) -> String {
    let mut lines: Vec<String> = source.lines().map(str::to_string).collect();
    for e in edits {
        let line = format!("{} = {}", e.key, e.value);
        let Some((start, end)) = range(&lines, &e.section) else {
            if let Some(h) = e.section.header() {
                lines.extend([String::new(), h, line]);
            }
            continue;
        };
        match (start + 1..end).find(|&i| sets(&lines[i], e.key)) {
            Some(i) => lines[i] = line,
            None => lines.insert(start + 1, line),
        }
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_replace_or_add_keys_in_their_sections() {
        let src = "# top\n[table]\nname = \"T\"\n\n[keys.k]\npopularity = { zipf = 0.8 }  # ASSUMPTION\npopularity_from = \"assumption\"\n\n[[gsi]]\nname = \"A\"\ncoverage = 1\n\n[[gsi]]\nname = \"B\"\npartition_key = \"k\"\n";
        let out = apply(
            src,
            &[
                Edit { section: Section::Key("k".into()), key: "popularity", value: "{ zipf = 1.1 }".into() },
                Edit { section: Section::Key("k".into()), key: "popularity_from", value: "\"calibration\"".into() },
                Edit { section: Section::Gsi("B".into()), key: "coverage", value: "0.3".into() },
                Edit { section: Section::Gsi("A".into()), key: "coverage", value: "0.5".into() },
                Edit { section: Section::Table, key: "gsi_absorb_bound", value: "20000".into() },
                Edit { section: Section::Gsi("C".into()), key: "coverage", value: "0.1".into() },
                Edit { section: Section::Client, key: "instances", value: "4".into() },
            ],
        );
        assert_eq!(
            out,
            "# top\n[table]\ngsi_absorb_bound = 20000\nname = \"T\"\n\n[keys.k]\npopularity = { zipf = 1.1 }\npopularity_from = \"calibration\"\n\n[[gsi]]\nname = \"A\"\ncoverage = 0.5\n\n[[gsi]]\ncoverage = 0.3\nname = \"B\"\npartition_key = \"k\"\n\n[client]\ninstances = 4\n"
        );
    }
}
