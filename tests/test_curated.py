"""Property tests for the CPIC dump reader in `epigraph.curated`, and fuzzing with damaged real rows.

- Round trips: any list of strings (with quotes, commas, braces, backslashes, tabs, newlines) and NULLs written
  the way PostgreSQL writes an array inside a COPY text row reads back unchanged.
- Damaged real rows (the `drug` block of the CPIC initial data, through the data registry) never make the
  reader raise, and the counts reconcile: every data line is either a kept row or a reject with its line.
Synthetic strings are random text, not records; no PMID is involved.
"""
import logging, random, tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from epigraph.config import fetch, get_logger
from epigraph.curated import load_cpic
from epigraph.pgdump import copy_field, pg_array, read_pg_dump, schema_columns
from epigraph.sources import Rejects

get_logger("epigraph.sources").setLevel(logging.ERROR)   # every reject logs a warning
FUZZ = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SCHEMA = schema_columns(fetch("cpic-schema").read_text())

def copy_escape(s: str|None) -> str:
    "Write a value as PostgreSQL's COPY text format does."
    if s is None: return r"\N"
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")

def array_literal(items: list[str|None]) -> str:
    "Write a one-dimensional array literal with every element quoted, as PostgreSQL does for awkward text."
    return "{" + ",".join("NULL" if x is None else '"' + x.replace("\\", "\\\\").replace('"', '\\"') + '"' for x in items) + "}"

text = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30)


@FUZZ
@given(text)
def test_copy_field_round_trip(s):
    assert copy_field(copy_escape(s)) == s


@FUZZ
@given(st.lists(st.one_of(st.none(), text), max_size=6))
def test_array_round_trip(items):
    assert pg_array(array_literal(items)) == items
    assert pg_array(copy_field(copy_escape(array_literal(items)))) == items


def _dump(tmp: Path, rows: list[str]) -> Path:
    p = tmp/"synthetic.sql"
    p.write_text("COPY drug (drugid, name, pharmgkbid, rxnormid, drugbankid, atcid, version) FROM stdin;\n" + "\n".join(rows) + "\n\\.\n")
    return p


@FUZZ
@given(st.lists(text, min_size=1, max_size=6), text)
def test_generated_rows_read_back(atc, name):
    row = "\t".join(copy_escape(v) for v in ["X:1", name, None, "1", None, array_literal(atc), "1"])
    with tempfile.TemporaryDirectory() as d:
        rows, _, n = read_pg_dump(_dump(Path(d), [row]), SCHEMA, Rejects("synthetic"))
    assert n == 1 and rows["drug"][0]["name"] == name and rows["drug"][0]["atcid"] == atc


# Real rows: the drug block of V2__initial_data.sql.
_lines = fetch("cpic-data").read_text().splitlines()
DRUG_ROWS = _lines[1:_lines.index("\\.")]

def _mutate(line: str, how: int, k: int, junk: str) -> str:
    f = line.split("\t")
    if how == 0: return line[: k % (len(line) + 1)]                      # truncated
    if how == 1: del f[k % len(f)]; return "\t".join(f)                 # a field lost
    if how == 2: f.insert(k % len(f), junk); return "\t".join(f)        # a field too many
    if how == 3: f[-1] = junk; return "\t".join(f)                      # version not a number (mostly)
    if how == 4: f[min(5, len(f) - 1)] = "{" + junk; return "\t".join(f)   # broken array (or whatever is there)
    return line[: k % (len(line) + 1)] + junk + line[k % (len(line) + 1):]


@FUZZ
@given(st.lists(st.tuples(st.integers(0, len(DRUG_ROWS) - 1), st.integers(0, 5), st.integers(0, 200), text), max_size=8),
       st.integers(0, 2**31))
def test_damaged_real_rows_reconcile(mutations, seed):
    rows = random.Random(seed).sample(DRUG_ROWS, 20)
    for i, how, k, junk in mutations:
        rows[i % 20] = _mutate(rows[i % 20], how, k, junk).replace("\n", " ").replace("\r", " ")
    rows = [r for r in rows if r != "\\."]   # a lone end marker would end the block early: not a row
    rj = Rejects("synthetic")
    with tempfile.TemporaryDirectory() as d:
        got, _, n = read_pg_dump(_dump(Path(d), rows), SCHEMA, rj)
    kept = len(got.get("drug", []))
    assert n == len(rows) == kept + len(rj)
    assert all(r["line"] >= 2 for r in rj.rows)
    for r in got.get("drug", []):
        assert isinstance(r["atcid"], (list, type(None))) and isinstance(r["version"], (int, type(None)))


def test_real_cpic_reconciles():
    cpic = load_cpic()
    assert cpic.reconciles and len(cpic.rejects) == 0
    assert {"genes", "drugs", "guidelines", "publications", "pairs", "phenytoin_2020", "change_log"} <= set(cpic.tables)
