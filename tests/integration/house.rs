//! The house rules of `src/`, checked on the source itself (issue 38): no file over 700 lines
//! before its tests, no function over 120 lines, no import cycle between files, and no import
//! that runs up the layers. `cargo test house` prints every breach with its place.
//!
//! The reading is lexical, as a reviewer's would be: strings, characters and comments are blanked
//! before anything is matched, a file's tests start at its first `#[cfg(test)]`, a function runs
//! from its `fn` line to the brace that closes its body, and an import is a `use crate::…` item,
//! a `crate::a::b` path or a `use super::…` item, resolved to the longest module file that exists.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Lines a file may have before its tests.
const MAX_FILE_LINES: usize = 700;
/// Lines a function may have, its signature and closing brace included.
const MAX_FN_LINES: usize = 120;

/// The layers, lowest first: a module may import from its own floor's other modules (without a
/// cycle, which the module graph checks) and from floors below, never from a floor above.
const FLOORS: &[&[&str]] = &[
    &["units", "limits", "time", "output", "input", "stats", "rng", "hint", "alloc", "format", "item_size"],
    &["scenario"],
    &["traffic"],
    &["model"],
    &["metrics"],
    &["engine"],
    &["cost"],
    &["import"],
    &["guard", "bench_support"],
    &["study"],
    &["report"],
    &["cli"],
];

/// A source file: its module path (`["engine", "draw"]`), its path, and its code before the
/// tests with strings, characters and comments blanked (line structure kept).
struct Source {
    module: Vec<String>,
    path: PathBuf,
    code: Vec<String>,
}

/// `text` with the contents of strings, raw strings, character literals and comments replaced by
/// spaces, line breaks kept.
fn blank(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let keep = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(keep(b[i]));
                    i += 1;
                }
            }
        } else if c == 'r' && (next == Some('#') || next == Some('"')) && (i == 0 || !is_ident(b[i - 1])) {
            // A raw string: r"…" or r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            out.push('"');
            for _ in i + 1..=j {
                out.push(' ');
            }
            out.pop();
            i = j + 1;
            loop {
                if i >= b.len() {
                    break;
                }
                if b[i] == '"' && (0..hashes).all(|k| b.get(i + 1 + k) == Some(&'#')) {
                    out.push('"');
                    for _ in 0..hashes {
                        out.push(' ');
                    }
                    i += 1 + hashes;
                    break;
                }
                out.push(keep(b[i]));
                i += 1;
            }
        } else if c == '"' {
            out.push('"');
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < b.len() {
                    out.push(keep(b[i]));
                    i += 1;
                }
            }
            out.push('"');
            i += 1;
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{..}'), else a lifetime or label.
            let lit_end = if next == Some('\\') {
                (i + 2..b.len().min(i + 12)).find(|&j| b[j] == '\'')
            } else if b.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match lit_end {
                Some(e) => {
                    out.push('\'');
                    for _ in i + 1..e {
                        out.push(' ');
                    }
                    out.push('\'');
                    i = e + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn sources() -> Vec<Source> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).expect("src/ reads") {
            let p = e.expect("an entry").path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
        .into_iter()
        .filter_map(|path| {
            let rel = path.strip_prefix(&src).expect("under src").with_extension("");
            let mut module: Vec<String> = rel.iter().map(|c| c.to_string_lossy().into_owned()).collect();
            if module.last().is_some_and(|m| m == "mod") {
                module.pop();
            }
            if module == ["lib"] || module == ["main"] {
                return None;
            }
            let text = std::fs::read_to_string(&path).expect("a source file reads");
            let before = before_tests(&text);
            let code = blank(&before.join("\n")).lines().map(str::to_string).collect();
            Some(Source { module, path, code })
        })
        .collect()
}

/// The lines of `text` before its test module: the first `#[cfg(test)]` followed by a `mod`
/// line. A `#[cfg(test)]` on a function or a constant does not end the code (four files over
/// 700 lines hid behind one).
fn before_tests(text: &str) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().collect();
    let is_mod = |l: &str| {
        let l = l.trim_start();
        let l = l.strip_prefix("pub(crate) ").or_else(|| l.strip_prefix("pub ")).unwrap_or(l);
        l.starts_with("mod ")
    };
    let end = (0..lines.len())
        .find(|&i| lines[i].trim_start().starts_with("#[cfg(test)]") && lines.get(i + 1).is_some_and(|l| is_mod(l)))
        .unwrap_or(lines.len());
    lines[..end].to_vec()
}

/// A `#[cfg(test)]` item before the test module is code; the test module is not.
#[test]
fn the_code_ends_at_the_test_module_not_at_a_test_only_item() {
    let text = "fn a() {}\n#[cfg(test)]\nfn only_in_tests() {}\nfn b() {}\n#[cfg(test)]\nmod tests {\n}\n";
    assert_eq!(before_tests(text), ["fn a() {}", "#[cfg(test)]", "fn only_in_tests() {}", "fn b() {}"]);
}

/// Every function's (name, first line, lines) in `code`.
fn functions(code: &[String]) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    for (i, line) in code.iter().enumerate() {
        let words: Vec<&str> = line.split(|c: char| !is_ident(c)).collect();
        let Some(k) = words.iter().position(|w| *w == "fn") else { continue };
        let Some(name) = words.get(k + 1).filter(|n| !n.is_empty()) else { continue };
        // The body: the first `{` before a `;` from the `fn`, to the brace that closes it.
        let start = line.find("fn ").unwrap_or(0);
        let mut depth = 0i64;
        let mut opened = false;
        let mut end = None;
        'scan: for (j, l) in code.iter().enumerate().skip(i) {
            let from = if j == i { start } else { 0 };
            for ch in l[from..].chars() {
                match ch {
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' => {
                        depth -= 1;
                        if opened && depth == 0 {
                            end = Some(j);
                            break 'scan;
                        }
                    }
                    ';' if !opened => break 'scan,
                    _ => {}
                }
            }
        }
        if let Some(e) = end {
            out.push(((*name).to_string(), i + 1, e - i + 1));
        }
    }
    out
}

/// The module paths `code` names through `crate::`, `use crate::{…}` and `use super::`.
fn imports(module: &[String], code: &[String]) -> Vec<Vec<String>> {
    let text = code.join("\n");
    let mut out = Vec::new();
    // `use` items, with their groups expanded.
    let mut rest = text.as_str();
    while let Some(at) = rest.find("use ") {
        let before_ok = at == 0 || !is_ident(rest[..at].chars().last().unwrap_or(' '));
        let tail = &rest[at + 4..];
        let Some(semi) = tail.find(';') else { break };
        let item = squeeze(&tail[..semi]);
        if before_ok {
            let (base, body) = if let Some(b) = item.strip_prefix("crate::") {
                (Vec::new(), b.to_string())
            } else if item.starts_with("super::") {
                let mut base: Vec<String> = module[..module.len() - 1].to_vec();
                let mut b = item.as_str();
                b = b.strip_prefix("super::").unwrap_or(b);
                while let Some(x) = b.strip_prefix("super::") {
                    base.pop();
                    b = x;
                }
                (base, b.to_string())
            } else {
                rest = &tail[semi..];
                continue;
            };
            out.extend(expand(&base, &body));
        }
        rest = &tail[semi..];
    }
    // `crate::a::b` and `super::a::b` paths in code.
    let b: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < b.len() {
        let at = |w: &str| b[i..].iter().take(w.len()).copied().eq(w.chars());
        let starts = i == 0 || !(is_ident(b[i - 1]) || b[i - 1] == ':');
        let (skip, mut base) = if starts && at("crate::") {
            (7, Vec::new())
        } else if starts && at("super::") {
            (7, module[..module.len() - 1].to_vec())
        } else {
            i += 1;
            continue;
        };
        let mut j = i + skip;
        let mut path = String::new();
        while j < b.len() && (is_ident(b[j]) || b[j] == ':') {
            path.push(b[j]);
            j += 1;
        }
        let mut parts: Vec<String> = path.split("::").filter(|s| !s.is_empty()).map(str::to_string).collect();
        while parts.first().is_some_and(|p| p == "super") {
            parts.remove(0);
            base.pop();
        }
        if !parts.is_empty() {
            base.extend(parts);
            out.push(base);
        }
        i = j;
    }
    out
}

/// `s` with whitespace dropped except one space between two words (`e as f`).
fn squeeze(s: &str) -> String {
    let words: Vec<&str> = s.split_whitespace().collect();
    let mut out = String::new();
    for w in words {
        if out.chars().last().is_some_and(is_ident) && w.chars().next().is_some_and(is_ident) {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

/// `a::{b, c::{d, e}}` under `base`: `[base+a::b, base+a::c::d, base+a::c::e]`.
fn expand(base: &[String], body: &str) -> Vec<Vec<String>> {
    let Some(open) = body.find('{') else {
        let mut p = base.to_vec();
        p.extend(body.split(" as ").next().unwrap_or("").split("::").filter(|s| !s.is_empty()).map(str::to_string));
        return vec![p];
    };
    let mut prefix = base.to_vec();
    prefix.extend(body[..open].split("::").filter(|s| !s.is_empty()).map(str::to_string));
    let inner = &body[open + 1..body.rfind('}').unwrap_or(body.len())];
    let (mut depth, mut cur, mut out) = (0, String::new(), Vec::new());
    for ch in inner.chars().chain(std::iter::once(',')) {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ => {}
        }
        if ch == ',' && depth == 0 {
            if !cur.is_empty() && cur != "self" {
                out.extend(expand(&prefix, &cur));
            } else if cur == "self" {
                out.push(prefix.clone());
            }
            cur.clear();
        } else {
            cur.push(ch);
        }
    }
    out
}

/// The module graph: for each file, the files it imports (its ancestors and descendants left
/// out: a parent re-exports its children).
fn graph(files: &[Source]) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let known: BTreeSet<&Vec<String>> = files.iter().map(|f| &f.module).collect();
    let resolve = |p: &[String]| (1..=p.len()).rev().map(|k| p[..k].to_vec()).find(|m| known.contains(m));
    let mut g = BTreeMap::new();
    for f in files {
        let e: &mut BTreeSet<Vec<String>> = g.entry(f.module.clone()).or_default();
        for t in imports(&f.module, &f.code) {
            if let Some(r) = resolve(&t) {
                if r != f.module {
                    e.insert(r);
                }
            }
        }
    }
    g
}

fn is_prefix(a: &[String], b: &[String]) -> bool {
    a.len() < b.len() && b[..a.len()] == *a
}

/// The strongly connected sets of more than one node (Tarjan).
fn cycles(g: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<Vec<Vec<String>>> {
    struct T<'a> {
        g: &'a BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        index: BTreeMap<&'a Vec<String>, usize>,
        low: BTreeMap<&'a Vec<String>, usize>,
        stack: Vec<&'a Vec<String>>,
        on: BTreeSet<&'a Vec<String>>,
        out: Vec<Vec<Vec<String>>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a Vec<String>) {
        let i = t.index.len();
        t.index.insert(v, i);
        t.low.insert(v, i);
        t.stack.push(v);
        t.on.insert(v);
        for w in t.g.get(v).into_iter().flatten() {
            let Some((w, _)) = t.g.get_key_value(w) else { continue };
            if !t.index.contains_key(w) {
                visit(t, w);
                let lw = t.low[w];
                let lv = t.low.get_mut(v).expect("visited");
                *lv = (*lv).min(lw);
            } else if t.on.contains(w) {
                let iw = t.index[w];
                let lv = t.low.get_mut(v).expect("visited");
                *lv = (*lv).min(iw);
            }
        }
        if t.low[v] == t.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on.remove(w);
                comp.push(w.clone());
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                t.out.push(comp);
            }
        }
    }
    let mut t = T { g, index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), on: BTreeSet::new(), out: Vec::new() };
    for v in g.keys() {
        if !t.index.contains_key(v) {
            visit(&mut t, v);
        }
    }
    t.out
}

#[test]
fn no_file_is_over_700_lines_before_its_tests() {
    let long: Vec<String> = sources()
        .iter()
        .filter(|f| f.code.len() > MAX_FILE_LINES)
        .map(|f| format!("{} ({} lines)", f.path.display(), f.code.len()))
        .collect();
    assert!(long.is_empty(), "files over {MAX_FILE_LINES} lines before their tests:\n{}", long.join("\n"));
}

#[test]
fn no_function_is_over_120_lines() {
    let mut long = Vec::new();
    for f in sources() {
        for (name, line, n) in functions(&f.code) {
            if n > MAX_FN_LINES {
                long.push(format!("{}:{line} fn {name} ({n} lines)", f.path.display()));
            }
        }
    }
    assert!(long.is_empty(), "functions over {MAX_FN_LINES} lines:\n{}", long.join("\n"));
}

#[test]
fn no_import_cycle_between_files() {
    let files = sources();
    let g: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = graph(&files)
        .into_iter()
        .map(|(a, bs)| {
            let bs = bs.into_iter().filter(|b| !is_prefix(b, &a) && !is_prefix(&a, b)).collect();
            (a, bs)
        })
        .collect();
    let found: Vec<String> = cycles(&g).iter().map(|c| c.iter().map(|m| m.join("/")).collect::<Vec<_>>().join(" <-> ")).collect();
    assert!(found.is_empty(), "import cycles between files:\n{}", found.join("\n"));
}

#[test]
fn no_import_runs_up_the_layers() {
    let files = sources();
    let floor = |m: &str| FLOORS.iter().position(|f| f.contains(&m));
    let mut up = Vec::new();
    let mut unknown = BTreeSet::new();
    let mut modules: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (a, bs) in graph(&files) {
        for b in bs {
            if a[0] == b[0] {
                continue;
            }
            modules.entry(vec![a[0].clone()]).or_default().insert(vec![b[0].clone()]);
            match (floor(&a[0]), floor(&b[0])) {
                (Some(fa), Some(fb)) if fb > fa => up.push(format!("{} -> {} (floor {fa} imports floor {fb})", a.join("/"), b.join("/"))),
                (None, _) => {
                    unknown.insert(a[0].clone());
                }
                (_, None) => {
                    unknown.insert(b[0].clone());
                }
                _ => {}
            }
        }
    }
    assert!(unknown.is_empty(), "modules on no floor of FLOORS (add them): {unknown:?}");
    assert!(up.is_empty(), "imports that run up the layers:\n{}", up.join("\n"));
    let found: Vec<String> = cycles(&modules).iter().map(|c| c.iter().map(|m| m.join("/")).collect::<Vec<_>>().join(" <-> ")).collect();
    assert!(found.is_empty(), "module cycles:\n{}", found.join("\n"));
}

/// The reader itself: a cycle, an upward import and a long function it must find, and the
/// strings and comments it must not be fooled by.
#[test]
fn the_house_reader_finds_what_it_should() {
    let code: Vec<String> = blank(
        "use crate::{a::b, c::{d, e as f}};\nfn g() {\n    let s = \"crate::z::y { }\"; // crate::q\n    let c = '{';\n    crate::h::i();\n}\n",
    )
    .lines()
    .map(str::to_string)
    .collect();
    let m = vec!["x".to_string()];
    let got: Vec<String> = imports(&m, &code).iter().map(|p| p.join("::")).collect();
    assert_eq!(got, ["a::b", "c::d", "c::e", "h::i"]);
    assert_eq!(functions(&code), [("g".to_string(), 2, 5)]);
    let s = |p: &str| p.split('/').map(str::to_string).collect::<Vec<_>>();
    let g: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> =
        [(s("a/b"), [s("a/c")].into()), (s("a/c"), [s("a/b")].into()), (s("d"), [s("a/b")].into())].into_iter().collect();
    assert_eq!(cycles(&g), [vec![s("a/b"), s("a/c")]]);
}
