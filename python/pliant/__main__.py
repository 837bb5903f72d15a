"""`python -m pliant --version` prints the module's version. Scenes run from Python (docs/python.md) or
with the `pliant` command-line tool (README)."""

import argparse

import pliant

parser = argparse.ArgumentParser(prog="python -m pliant", description=__doc__)
parser.add_argument("--version", action="version", version=f"pliant {pliant.__version__}")
parser.parse_args()
parser.print_help()
