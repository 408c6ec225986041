"""Wrap long lines of exported notebook cells: split string literals inside brackets (implicit concatenation), then
break after a comma inside a bracket opened on the line (continuation aligned with the bracket).
Semantics kept: each changed cell's AST (ast.dump, no positions) must equal the original's, else the cell is left alone;
a cell that would pass MAX_CELL lines is left alone too. Then run nbdev_export and scripts/check_sizes.py (a module may
grow past its cap: skip that notebook) and lower LONG_LINES_TODAY there.

Run: python scripts/wrap_strings.py nbs [NOTEBOOK_STEM ...]   (the stems named are skipped)"""
import ast, io, json, re, sys, tokenize
from pathlib import Path
MAXC, MAX_CELL = 120, 40
PREFIX = re.compile(r"^([rRbBuUfF]{0,2})(['\"])")

def split_point(body: str, is_f: bool, limit: int) -> int|None:
    "Index in body after which to split (a space outside f-string braces, not escaped), the last one < limit."
    depth, i, best = 0, 0, None
    while i < len(body) and i < limit:
        ch = body[i]
        if is_f and body[i:i+2] in ("{{", "}}"): i += 2; continue
        if is_f and ch == "{": depth += 1
        elif is_f and ch == "}": depth -= 1
        elif ch == "\\": i += 2; continue
        elif ch == " " and depth == 0 and i > 10: best = i
        i += 1
    return best

def wrap_once(src: str) -> str|None:
    lines = src.split("\n")
    try: toks = list(tokenize.generate_tokens(io.StringIO(src).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError): return None
    depth = 0
    for t in toks:
        if t.type == tokenize.OP and t.string in "([{": depth += 1
        elif t.type == tokenize.OP and t.string in ")]}": depth -= 1
        if t.type != tokenize.STRING or depth <= 0 or t.start[0] != t.end[0]: continue
        row, col = t.start[0] - 1, t.start[1]
        line = lines[row]
        if len(line) <= MAXC or t.end[1] <= MAXC or col > 100: continue
        m = PREFIX.match(t.string)
        if not m or t.string.startswith((m.group(0) * 3, m.group(1) + m.group(2) * 3)): continue
        pre, q = m.group(1), m.group(2)
        body = t.string[len(pre) + 1:-1]
        limit = MAXC - col - len(pre) - 2
        k = split_point(body, "f" in pre.lower(), limit)
        if k is None: continue
        a, b = body[:k + 1], body[k + 1:]
        if not b: continue
        pa = pre if "{" in a or "}" in a else pre.replace("f", "").replace("F", "")   # no f on a part without fields
        pb = pre if "{" in b or "}" in b else pre.replace("f", "").replace("F", "")
        first = line[:col] + pa + q + a + q
        second = " " * col + pb + q + b + q + line[t.end[1]:]
        return "\n".join(lines[:row] + [first, second] + lines[row + 1:])
    return None

def _brackets(toks) -> dict:
    "Each bracket's start -> (its closing token's start, whether a `for` or `lambda` sits at its own level)."
    stack, info = [], {}
    for t in toks:
        if t.type == tokenize.OP and t.string in "([{": stack.append(t.start); info[t.start] = [None, False]
        elif t.type == tokenize.OP and t.string in ")]}": info[stack.pop()][0] = t.start
        elif t.type == tokenize.NAME and t.string in ("for", "lambda") and stack: info[stack[-1]][1] = True
    return info

def wrap_comma_once(src: str) -> str|None:
    """Break a long line after a comma of a bracket that crosses the limit (opened on the line, at most two deep, not a
    comprehension or lambda), the shallowest such bracket first, keeping at least 15 characters for the next line."""
    lines = src.split("\n")
    try: toks = list(tokenize.generate_tokens(io.StringIO(src).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError): return None
    info, stack, cands = _brackets(toks), [], {}   # cands: row -> [(depth, comma end col, alignment col)]
    for t in toks:
        if t.type == tokenize.OP and t.string in "([{": stack.append(t.start)
        elif t.type == tokenize.OP and t.string in ")]}": stack.pop()
        elif t.type == tokenize.OP and t.string == "," and stack:
            (brow, bcol), (row, col) = stack[-1], t.start
            on_line = [b for b in stack if b[0] == row]
            end = info[stack[-1]][0]
            crosses = end[0] > row or end[1] >= MAXC
            if brow == row and col + 1 <= MAXC and bcol + 1 <= 80 and len(lines[row - 1]) > MAXC and crosses \
                    and len(on_line) <= 2 and not any(info[b][1] for b in on_line):
                cands.setdefault(row, []).append((len(on_line), col + 1, bcol + 1))
    for row in sorted(cands):
        line = lines[row - 1]
        ok = [(d, -cut, cut, al) for d, cut, al in cands[row] if len(line[cut:].strip()) >= 15
              and not line[cut:].lstrip().startswith("#")]
        if not ok: continue
        _, _, cut, align = min(ok)
        return "\n".join(lines[:row - 1] + [line[:cut], " " * align + line[cut:].lstrip()] + lines[row:])
    return None

def short_functions(src: str, most: int = 50) -> bool:
    return all(n.end_lineno - n.lineno + 1 <= most for n in ast.walk(ast.parse(src))
               if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))

def dump(src):
    return ast.dump(ast.parse(src))

def wrap(src: str) -> str:
    cur = src
    for step in (wrap_once, wrap_comma_once):
        for _ in range(200):
            nxt = step(cur)
            if nxt is None: break
            cur = nxt
    return cur

changed = fixed = 0
for p in sorted(Path(sys.argv[1]).glob("*.ipynb")):
    if p.stem in sys.argv[2:]: continue
    d = json.loads(p.read_text(encoding="utf-8")); touched = False
    for c in d["cells"]:
        src = "".join(c["source"])
        if c["cell_type"] != "code" or not src.startswith("#| export"): continue
        new = wrap(src)
        if new == src: continue
        try: same = dump(new) == dump(src)
        except SyntaxError: same = False
        if not same: print("AST differs, skipped:", p.name, c.get("id")); continue
        if len(new.splitlines()) - 1 > MAX_CELL or not short_functions(new): continue
        before = sum(len(l) > MAXC for l in src.split("\n")); after = sum(len(l) > MAXC for l in new.split("\n"))
        fixed += before - after; changed += 1; touched = True
        ls = new.split("\n"); c["source"] = [l + "\n" for l in ls[:-1]] + [ls[-1]]
    if touched: p.write_text(json.dumps(d, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
print(f"cells changed {changed}, long lines fixed {fixed}")
