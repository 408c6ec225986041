"""Module size and line length of the exported package, against the bars of the code-structure issue (no module
over 550 lines, no line over 120 characters), as a ratchet: a module already over the bar may not grow past the
size it has today, and the number of long lines may not grow. Lower a cap when a module shrinks; remove it when
the module is under the bar. Prints where each stands; exits 1, naming what grew, otherwise.

Run: python scripts/check_sizes.py
"""
import sys
from pathlib import Path

MAX_MODULE_LINES, MAX_LINE_CHARS = 550, 120
OVER_TODAY: dict[str, int] = {}   # modules over the bar, each at the size it may not pass (none since 2026-12-02)
LONG_LINES_TODAY = 933              # lines over MAX_LINE_CHARS in epigraph/*.py on 2026-12-02


def measure(package: Path) -> tuple[dict[str, int], int]:
    "Lines per module and lines over the length bar, over the package's modules (the generated index excluded)."
    sizes, long_lines = {}, 0
    for p in sorted(package.glob("*.py")):
        if p.name == "_modidx.py": continue
        lines = p.read_text(encoding="utf-8").splitlines()
        sizes[p.stem] = len(lines)
        long_lines += sum(len(l) > MAX_LINE_CHARS for l in lines)
    return sizes, long_lines


def problems(sizes: dict[str, int], long_lines: int) -> list[str]:
    "What breaks the ratchet: a new module over the bar, a module over the bar that grew, more long lines."
    out = []
    for m, n in sizes.items():
        cap = OVER_TODAY.get(m, MAX_MODULE_LINES)
        if n > cap: out.append(f"epigraph/{m}.py has {n} lines (allowed {cap}; the bar is {MAX_MODULE_LINES})")
    if long_lines > LONG_LINES_TODAY:
        out.append(f"{long_lines} lines over {MAX_LINE_CHARS} characters (allowed {LONG_LINES_TODAY})")
    return out


if __name__ == "__main__":
    sizes, long_lines = measure(Path(__file__).resolve().parent.parent / "epigraph")
    over = {m: n for m, n in sizes.items() if n > MAX_MODULE_LINES}
    print(f"modules: {len(sizes)}, over {MAX_MODULE_LINES} lines: {over or 'none'}; "
          f"lines over {MAX_LINE_CHARS} characters: {long_lines}")
    found = problems(sizes, long_lines)
    for p in found: print(f"FAIL: {p}")
    sys.exit(1 if found else 0)
