"""Writes the README's C++ snippets into one test program, exactly as written.

Each ```cpp block becomes `static int readme_snippet_N()`: its #include lines go to the top of the
file, the rest is the function body (so a snippet may `return 1;` on an error, as a careful caller
would). main() runs the snippets in order and fails on the first that returns non-zero.

usage: extract_snippets.py README.md OUT.cpp
"""
import re
import sys

readme, out = sys.argv[1], sys.argv[2]
text = open(readme, encoding="utf-8").read()
blocks = re.findall(r"^```cpp\n(.*?)^```", text, flags=re.S | re.M)
if not blocks:
    sys.exit(f"{readme}: no ```cpp blocks found")

includes, bodies = [], []
for n, block in enumerate(blocks, 1):
    body = []
    for line in block.splitlines():
        (includes if line.startswith("#include") else body).append(line)
    bodies.append((n, body))

lines = [f"// Generated from {readme} by tests/readme/extract_snippets.py: do not edit.",
         "#include <cstdio>", "#include <exception>"]
lines += sorted(set(includes))
for n, body in bodies:
    lines += ["", f"static int readme_snippet_{n}() {{", f"#line 1 \"README.md snippet {n}\""]
    lines += body
    lines += ["  return 0;", "}"]
lines += ["", "int main() {", "  try {"]
for n, _ in bodies:
    lines += [f"    if (int rc = readme_snippet_{n}(); rc != 0) {{",
              f"      std::fprintf(stderr, \"README snippet {n} returned %d\\n\", rc);",
              "      return rc;", "    }"]
lines += ["  } catch (const std::exception& e) {",
          "    std::fprintf(stderr, \"README snippet threw: %s\\n\", e.what());",
          "    return 1;", "  }",
          f"  std::printf(\"{len(bodies)} README snippets ran\\n\");", "  return 0;", "}", ""]
open(out, "w", encoding="utf-8").write("\n".join(lines))
