"""Module, function, cell and line sizes of the package, against the bars of the code-structure issue (no module over
550 lines, no function over 50, no exported notebook cell over 40, no line over 120 characters), as a ratchet: a
module already over the bar may not grow past the size it has today, and the counts of long functions, long cells
and long lines may not grow. Two house ratchets of issue 46 sit beside them: the share of lines over 100 characters
and the number of lines that join statements with `;` may only go down. Lower a cap when things shrink. Prints where each stands; exits 1, naming what grew.

Run: python scripts/check_sizes.py
"""
import ast, io, json, sys, tokenize
from pathlib import Path

MAX_MODULE_LINES, MAX_FUNCTION_LINES, MAX_CELL_LINES, MAX_LINE_CHARS = 550, 50, 40, 120
OVER_TODAY: dict[str, int] = {}   # modules over the bar, each at the size it may not pass (none since 2026-12-02)
LONG_LINES_TODAY = 0              # lines over MAX_LINE_CHARS in epigraph/*.py: none since 2026-12-04 (the bar is met)
LONG_FUNCTIONS_TODAY = 0          # functions over MAX_FUNCTION_LINES: none since 2026-12-02 (the bar is met)
LONG_CELLS_TODAY = 0              # exported cells over MAX_CELL_LINES: none since 2026-12-03 (the bar is met)
WIDE_CHARS = 100                  # nbdev's own notebooks have 4.4% of lines wider than this, fastcore 2.3%
WIDE_SHARE_TODAY = 0.189          # share of package lines over WIDE_CHARS on 2026-12-07 (18.85%): may only go down
SEMICOLON_LINES_TODAY = 350       # lines joining statements with `;` on 2026-12-07: may only go down


def nbdev_all_line(line: str) -> bool:
    """The first line of an `__all__` list nbdev writes: nbdev wraps the list at 120 characters and then puts the
    10-character `__all__ = ` in front, so that one generated line can reach 130. Not counted as a long line."""
    return line.startswith("__all__ = [") and len(line) <= MAX_LINE_CHARS + len("__all__ = ")


def measure(package: Path) -> tuple[dict[str, int], int]:
    "Lines per module and lines over the length bar, over the package's modules (the generated index excluded)."
    sizes, long_lines = {}, 0
    for p in sorted(package.glob("*.py")):
        if p.name == "_modidx.py": continue
        lines = p.read_text(encoding="utf-8").splitlines()
        sizes[p.stem] = len(lines)
        long_lines += sum(len(l) > MAX_LINE_CHARS and not nbdev_all_line(l) for l in lines)
    return sizes, long_lines


def semicolon_lines(source: str) -> int:
    "Lines on which a `;` joins statements (a `;` inside a string or a comment is not counted)."
    toks = tokenize.generate_tokens(io.StringIO(source).readline)
    return len({t.start[0] for t in toks if t.type == tokenize.OP and t.string == ";"})


def house_counts(package: Path) -> tuple[float, int]:
    "The share of lines wider than WIDE_CHARS and the number of `;`-joined lines, over the package's modules."
    n = wide = semi = 0
    for p in sorted(package.glob("*.py")):
        if p.name == "_modidx.py": continue
        src = p.read_text(encoding="utf-8")
        lines = src.splitlines()
        n, wide, semi = n + len(lines), wide + sum(len(l) > WIDE_CHARS for l in lines), semi + semicolon_lines(src)
    return (wide / n if n else 0.0), semi


def long_functions(package: Path) -> list[tuple[str, str, int]]:
    "(module, function, lines) of every function or method over the bar."
    out = []
    for p in sorted(package.glob("*.py")):
        if p.name == "_modidx.py": continue
        for n in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)): continue
            if (length := n.end_lineno - n.lineno + 1) > MAX_FUNCTION_LINES: out.append((p.stem, n.name, length))
    return out


def long_cells(nbs: Path) -> list[tuple[str, int]]:
    "(notebook, lines) of every exported code cell over the bar (the `#| export` line not counted)."
    out = []
    for p in sorted(nbs.glob("*.ipynb")):
        for c in json.loads(p.read_text(encoding="utf-8"))["cells"]:
            src = "".join(c["source"])
            if c["cell_type"] == "code" and src.startswith("#| export") and len(src.splitlines()) - 1 > MAX_CELL_LINES:
                out.append((p.stem, len(src.splitlines()) - 1))
    return out


def problems(sizes: dict[str, int], long_lines: int, n_long_functions: int = 0, n_long_cells: int = 0,
             wide_share: float = 0.0, n_semicolon: int = 0) -> list[str]:
    "What breaks a ratchet: a module past its cap, or more long lines, functions, cells, wide or `;` lines than today."
    out = []
    if round(wide_share, 3) > WIDE_SHARE_TODAY:
        out.append(f"{wide_share:.1%} of lines over {WIDE_CHARS} characters (allowed {WIDE_SHARE_TODAY:.1%})")
    if n_semicolon > SEMICOLON_LINES_TODAY:
        out.append(f"{n_semicolon} lines join statements with ';' (allowed {SEMICOLON_LINES_TODAY})")
    for m, n in sizes.items():
        cap = OVER_TODAY.get(m, MAX_MODULE_LINES)
        if n > cap: out.append(f"epigraph/{m}.py has {n} lines (allowed {cap}; the bar is {MAX_MODULE_LINES})")
    for n, cap, what in ((long_lines, LONG_LINES_TODAY, f"lines over {MAX_LINE_CHARS} characters"),
                         (n_long_functions, LONG_FUNCTIONS_TODAY, f"functions over {MAX_FUNCTION_LINES} lines"),
                         (n_long_cells, LONG_CELLS_TODAY, f"exported cells over {MAX_CELL_LINES} lines")):
        if n > cap: out.append(f"{n} {what} (allowed {cap})")
    return out


if __name__ == "__main__":
    root = Path(__file__).resolve().parent.parent
    sizes, long_lines = measure(root / "epigraph")
    funcs, cells = long_functions(root / "epigraph"), long_cells(root / "nbs")
    wide, semi = house_counts(root / "epigraph")
    over = {m: n for m, n in sizes.items() if n > MAX_MODULE_LINES}
    print(f"modules: {len(sizes)}, over {MAX_MODULE_LINES} lines: {over or 'none'}; "
          f"lines over {MAX_LINE_CHARS} characters: {long_lines}; functions over {MAX_FUNCTION_LINES} lines: "
          f"{len(funcs)}; exported cells over {MAX_CELL_LINES} lines: {len(cells)}; lines over {WIDE_CHARS} "
          f"characters: {wide:.1%}; lines joined with ';': {semi}")
    found = problems(sizes, long_lines, len(funcs), len(cells), wide, semi)
    for p in found: print(f"FAIL: {p}")
    sys.exit(1 if found else 0)
