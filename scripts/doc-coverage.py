#!/usr/bin/env python3
"""Lists the public symbols that have no doc comment, from symbol graph files.

Usage: scripts/doc-coverage.py ROOT DIR...

Each DIR holds the symbol graphs of one module M (`M.symbols.json` and the `M@Other.symbols.json`
files of its extensions to other modules' types), as `scripts/docs` extracts them; the module's
catalog is ROOT/Sources/M/M.docc. Prints one line per undocumented symbol,
`path:line: kind name`, with paths relative to ROOT, sorted; exits 1 when there is any, 0 when
there is none.

What counts:
- every public or open symbol that has a source location, i.e. that is declared in the
  module's own sources, including members it adds to other modules' types;
- it is documented when it carries a doc comment written in this module: its own, or one it
  inherits from a class or protocol of the same module (DocC shows that text on its page); or
  when the catalog has a documentation extension file for it (a page whose title is the
  symbol's link, ``Type/member``): the way to document an enum case declared on its enum's
  line (`enum Mode { case a, b }`), which a `///` line cannot reach.

What is left out, and why:
- members the compiler synthesizes from protocol extensions (`!=` from Equatable, the
  SetAlgebra methods of an OptionSet, …: identifiers marked `::SYNTHESIZED::`) and implicit
  declarations without a source location (a raw-value enum's `init(rawValue:)`): nothing in
  the sources to comment; DocC shows the protocol's own documentation for them;
- extension blocks (`swift.extension`): DocC groups an extension's members under the extended
  type; the members themselves are checked.
A member that implements another module's protocol (`description`, `rawValue`, `<`) and is
written in our sources counts: the protocol's generic text does not say what ours does.
"""
import glob
import json
import os
import re
import sys
from urllib.parse import unquote, urlparse


def extension_pages(catalog, module):
    """The symbol paths ("Type/member") that the catalog's documentation extension files
    document (a first line `# ``Link`` ` and some text after it)."""
    documented = set()
    for path in sorted(glob.glob(os.path.join(catalog, "**", "*.md"), recursive=True)):
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
        title = re.fullmatch(r"#\s+``(.+)``\s*", lines[0]) if lines else None
        body = [line for line in lines[1:] if line.strip() and not line.lstrip().startswith(("@", "}"))]
        if title and body:
            link = title.group(1)
            if link.startswith(module + "/"):
                link = link[len(module) + 1:]
            documented.add(link)
    return documented


def undocumented(root, directory):
    """Yields (path, line, kind, name) for each undocumented symbol in one module's graphs."""
    pages = None
    for path in sorted(glob.glob(os.path.join(directory, "*.symbols.json"))):
        with open(path, encoding="utf-8") as f:
            graph = json.load(f)
        module = graph["module"]["name"]
        if pages is None:
            pages = extension_pages(os.path.join(root, "Sources", module, module + ".docc"), module)
        for symbol in graph["symbols"]:
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            if symbol["kind"]["identifier"] == "swift.extension":
                continue
            if "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
                continue
            location = symbol.get("location")
            if location is None:
                continue
            doc = symbol.get("docComment")
            if doc and doc.get("module", module) == module and any(
                    line.get("text", "").strip() for line in doc.get("lines", [])):
                continue
            if "/".join(symbol["pathComponents"]) in pages:
                continue
            file = unquote(urlparse(location["uri"]).path)
            rel = os.path.relpath(file, root)
            line = location["position"]["line"] + 1
            yield rel, line, symbol["kind"]["displayName"], ".".join(symbol["pathComponents"])


def main(argv):
    if len(argv) < 3 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) > 1 and argv[1] in ("-h", "--help") else 2
    root = os.path.abspath(argv[1])
    missing = set()
    for directory in argv[2:]:
        if not glob.glob(os.path.join(directory, "*.symbols.json")):
            print(f"doc-coverage: no symbol graph in {directory}", file=sys.stderr)
            return 2
        missing.update(undocumented(root, directory))
    for rel, line, kind, name in sorted(missing):
        print(f"{rel}:{line}: {kind} {name}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
