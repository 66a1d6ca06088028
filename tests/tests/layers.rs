//! No module imports one that imports it back, in any crate of the workspace: read from the
//! sources (the compiler allows such cycles; they are how one rule ends up written twice,
//! each half leaning on the other).
//!
//! A module is a source file (`a/b.rs` or `a/b/mod.rs` is `a::b`). Its imports are the paths
//! it names that start with `crate::`, `super::` or `self::` (one level of `{..}` groups
//! expanded), outside comments and outside its `#[cfg(test)] mod tests` block, resolved to the
//! longest module they name. Paths to the module's own ancestors or into its own children are
//! the tree itself, not imports between peers, and are left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn module_of(root: &Path, file: &Path) -> Module {
    let rel = file.strip_prefix(root).unwrap_or(file).with_extension("");
    let mut parts: Module = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts
        .last()
        .is_some_and(|l| ["mod", "lib", "main"].contains(&l.as_str()))
    {
        parts.pop();
    }
    parts
}

/// The source without line comments and without its inline test module.
fn code(source: &str) -> String {
    let body = source
        .split("#[cfg(test)]\nmod tests {")
        .next()
        .unwrap_or(source);
    body.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Reads `ident(::ident)*` from `s`, and the paths of a `::{a::b, c}` group after it.
fn read_path(s: &str) -> Vec<Vec<String>> {
    let mut segs = Vec::new();
    let mut rest = s;
    loop {
        let end = rest.find(|c: char| !is_ident(c)).unwrap_or(rest.len());
        if end == 0 {
            break;
        }
        segs.push(rest[..end].to_owned());
        rest = &rest[end..];
        match rest.strip_prefix("::") {
            Some(r) if r.starts_with('{') => {
                let inner = &r[1..r.find('}').unwrap_or(r.len())];
                return inner
                    .split(',')
                    .map(str::trim)
                    .flat_map(read_path)
                    .map(|tail| segs.iter().cloned().chain(tail).collect())
                    .chain(std::iter::once(segs.clone()))
                    .collect();
            }
            Some(r) => rest = r,
            None => break,
        }
    }
    vec![segs]
}

/// Every path the code names from `crate`, `super` or `self`, relative to the crate root.
fn named_paths(module: &Module, code: &str) -> Vec<Module> {
    let mut out = Vec::new();
    let bytes: Vec<char> = code.chars().collect();
    let text: String = bytes.iter().collect();
    for (i, _) in text.char_indices() {
        let before = text[..i].chars().next_back();
        if before.is_some_and(|c| is_ident(c) || c == ':') {
            continue;
        }
        let rest = &text[i..];
        if !["crate::", "super::", "self::"]
            .iter()
            .any(|p| rest.starts_with(p))
        {
            continue;
        }
        for path in read_path(rest) {
            let mut base = module.clone();
            let mut segs = path.as_slice();
            match segs.first().map(String::as_str) {
                Some("crate") => {
                    base.clear();
                    segs = &segs[1..];
                }
                Some("self") => segs = &segs[1..],
                _ => {
                    while segs.first().is_some_and(|s| s == "super") {
                        base.pop();
                        segs = &segs[1..];
                    }
                }
            }
            base.extend(segs.iter().cloned());
            out.push(base);
        }
    }
    out
}

/// The import graph of the crate whose sources are under `root`.
fn imports(root: &Path) -> BTreeMap<Module, BTreeSet<Module>> {
    let mut files = Vec::new();
    rust_files(root, &mut files);
    let modules: BTreeMap<Module, PathBuf> = files
        .iter()
        .map(|f| (module_of(root, f), f.clone()))
        .collect();
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (module, file) in &modules {
        let source = std::fs::read_to_string(file).expect("a source file reads");
        for path in named_paths(module, &code(&source)) {
            let Some(target) = (1..=path.len())
                .rev()
                .map(|k| path[..k].to_vec())
                .find(|m| modules.contains_key(m))
            else {
                continue;
            };
            let related = module.starts_with(&target) || target.starts_with(module);
            if !related {
                edges.entry(module.clone()).or_default().insert(target);
            }
        }
    }
    edges
}

/// The groups of modules that import each other, round a cycle (Tarjan's algorithm).
fn cycles(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct Walk<'a> {
        edges: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<Module, usize>,
        low: BTreeMap<Module, usize>,
        stack: Vec<Module>,
        found: Vec<Vec<Module>>,
    }
    impl Walk<'_> {
        fn visit(&mut self, v: &Module) {
            let n = self.index.len();
            self.index.insert(v.clone(), n);
            self.low.insert(v.clone(), n);
            self.stack.push(v.clone());
            for w in self.edges.get(v).into_iter().flatten() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let lw = self.low[w];
                    let lv = self.low.get_mut(v).expect("visited");
                    *lv = (*lv).min(lw);
                } else if self.stack.contains(w) {
                    let iw = self.index[w];
                    let lv = self.low.get_mut(v).expect("visited");
                    *lv = (*lv).min(iw);
                }
            }
            if self.low[v] == self.index[v] {
                let mut group = Vec::new();
                while let Some(w) = self.stack.pop() {
                    let done = &w == v;
                    group.push(w);
                    if done {
                        break;
                    }
                }
                if group.len() > 1 {
                    self.found.push(group);
                }
            }
        }
    }
    let mut walk = Walk {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !walk.index.contains_key(v) {
            walk.visit(v);
        }
    }
    walk.found
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate sits in the workspace")
        .to_path_buf()
}

#[test]
fn no_module_imports_one_that_imports_it_back() {
    let mut found = Vec::new();
    for krate in ["core", "crypto", "net", "app"] {
        let root = workspace().join(krate).join("src");
        let edges = imports(&root);
        assert!(edges.len() > 5, "{krate}: the imports were read");
        for group in cycles(&edges) {
            let names: Vec<String> = group.iter().map(|m| m.join("::")).collect();
            found.push(format!("{krate}: {}", names.join(" ⇄ ")));
        }
    }
    assert!(found.is_empty(), "import cycles:\n{}", found.join("\n"));
}

/// The reader finds a cycle where there is one (so that the test above can fail).
#[test]
fn a_cycle_is_found() {
    let dir = std::env::temp_dir().join(format!("fairdeal-layers-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("a")).expect("a scratch folder");
    let write = |p: &str, s: &str| std::fs::write(dir.join(p), s).expect("a scratch file");
    write("lib.rs", "mod a;\nmod b;\nmod c;\n");
    write("a/mod.rs", "mod x;\nuse super::b::B;\n");
    write("a/x.rs", "// use crate::c::C;\nuse crate::{b::B, c};\n");
    write(
        "b.rs",
        "use crate::c::C;\n#[cfg(test)]\nmod tests {\n    use super::super::a::A;\n}\n",
    );
    write("c.rs", "pub fn f() { let _ = super::a::x::y(); }\n");
    let edges = imports(&dir);
    let found = cycles(&edges);
    std::fs::remove_dir_all(&dir).expect("the scratch folder goes");
    let named: Vec<Vec<String>> = found
        .iter()
        .map(|g| {
            let mut v: Vec<String> = g.iter().map(|m| m.join("::")).collect();
            v.sort();
            v
        })
        .collect();
    // a → b → c → a::x → b (a::x's group import); b's test-only import of a is not counted.
    assert_eq!(named, vec![vec!["a::x", "b", "c"]], "{edges:?}");
}
