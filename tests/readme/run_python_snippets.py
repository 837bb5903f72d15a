"""Runs every ```python block of the README, in order, from the checkout's root (so its relative paths
hold): the README cannot show Python that does not work."""

import pathlib
import re
import sys

readme = pathlib.Path(sys.argv[1]).read_text()
blocks = re.findall(r"```python\n(.*?)```", readme, flags=re.S)
if not blocks:
    sys.exit("README has no python block")
for i, code in enumerate(blocks):
    print(f"README python block {i + 1}/{len(blocks)}")
    exec(compile(code, f"README.md python block {i + 1}", "exec"), {})
