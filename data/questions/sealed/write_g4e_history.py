#!/usr/bin/env python3
"""Write the sealed question set g4e_history.jsonl (release history of
Genes4Epilepsy genes).

Written by a helper session on 2026-12-07, before the project's
source-history reader existed, and without running the epigraph system.
Only the raw release TSVs are read (plain Python, standard library only).

Usage:
    python write_g4e_history.py [G4E_DIR] [OUT_JSONL]

G4E_DIR defaults to /work/shared/data/genes4epilepsy; OUT_JSONL defaults to
g4e_history.jsonl next to this script.

Gene identity is the HGNC id, never the symbol.  The 2022-09 release lists
four genes twice (old and new symbol on separate rows, same HGNC id); both
rows are kept and both are cited as sources.

Gold definitions
----------------
first_release  earliest release held that lists the HGNC id (2022-09 is the
               earliest release held, so "2022-09" means "2022-09 or earlier").
last_release   latest release that lists the HGNC id.
current_classes  Phenotype(s) value (CSV quotes removed) in last_release.
class_since    (class_since questions only) the earliest release R such that
               every release from R to last_release lists the gene with exactly
               the current Phenotype(s) value.
yes_no         (still_listed questions only) answer to the question as asked:
               "is it still listed?" -> yes iff in the latest release held;
               "was it dropped/removed?" -> yes iff NOT in the latest release.

The question texts below were typed by hand.  The genes were chosen by the
rules in choose_genes(); the script asserts that the hand-typed list matches
those rules, so a change to the data cannot silently change the set.
"""
import csv
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
G4E_DIR = sys.argv[1] if len(sys.argv) > 1 else "/work/shared/data/genes4epilepsy"
OUT = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "g4e_history.jsonl")
WRITTEN_BY = "helper session 2026-12-07, before the source-history reader"

RELEASES = ["2022-09", "2023-03", "2023-09", "2024-03",
            "2024-09", "2025-03", "2025-09", "2026-03"]
LATEST = RELEASES[-1]


def fname(rel):
    return "EpilepsyGenes_v%s.tsv" % rel


def load():
    """rel -> hgnc -> list of rows (dict with Gene, Phenotype(s), _line)."""
    data = {}
    for rel in RELEASES:
        by_id = {}
        with open(os.path.join(G4E_DIR, fname(rel)), newline="") as fh:
            reader = csv.DictReader(fh, delimiter="\t")
            for line_no, row in enumerate(reader, start=2):  # header = line 1
                row = {k: (v or "").strip() for k, v in row.items()}
                row["_line"] = line_no
                assert re.fullmatch(r"HGNC:\d+", row["HGNC_ID"]), (rel, line_no)
                by_id.setdefault(row["HGNC_ID"], []).append(row)
        data[rel] = by_id
    return data


DATA = load()


def present(h):
    return [r for r in RELEASES if h in DATA[r]]


def pheno(h, rel):
    vals = {row["Phenotype(s)"] for row in DATA[rel][h]}
    assert len(vals) == 1, (h, rel, vals)
    return vals.pop()


def symbols(h):
    out = []
    for r in present(h):
        for row in DATA[r][h]:
            if row["Gene"] not in out:
                out.append(row["Gene"])
    return out


def latest_symbol(h):
    return DATA[present(h)[-1]][h][-1]["Gene"]


def hgnc_of(symbol):
    ids = {h for r in RELEASES for h, rows in DATA[r].items()
           for row in rows if row["Gene"] == symbol}
    assert len(ids) == 1, (symbol, ids)
    return ids.pop()


def class_since(h):
    pres = present(h)
    cur = pheno(h, pres[-1])
    since = pres[-1]
    for r in reversed(pres):
        if pheno(h, r) != cur:
            break
        since = r
    # the gene must be listed in every release from `since` to the last one
    i, j = RELEASES.index(since), RELEASES.index(pres[-1])
    assert all(h in DATA[r] for r in RELEASES[i:j + 1]), h
    return since


ALL_IDS = sorted({h for r in RELEASES for h in DATA[r]}, key=lambda x: int(x[5:]))
RENAMED = [h for h in ALL_IDS if len(symbols(h)) > 1]
DROPPED = [h for h in ALL_IDS if h not in DATA[LATEST]]
GAPPED = [h for h in ALL_IDS
          if "10" in "".join("1" if h in DATA[r] else "0" for r in RELEASES)]


def additions(rel):
    return sorted((latest_symbol(h), h) for h in DATA[rel] if present(h)[0] == rel)


def choose_genes():
    """The selection rules, returning {kind: set of HGNC ids}."""
    chosen = {"first_release": set(), "still_listed": set(), "class_since": set()}
    # first_release: for each release after 2022-09, the middle addition by
    # (current) symbol; plus two renamed genes and SCN1A (in every release).
    for rel in RELEASES[1:]:
        add = additions(rel)
        chosen["first_release"].add(add[len(add) // 2][1])
    chosen["first_release"] |= {hgnc_of("CXorf56"), hgnc_of("AFG2B"), hgnc_of("SCN1A")}
    # still_listed: no gene is ever dropped (checked below), so mix renamed
    # genes asked by their OLD symbol, long-standing genes, and late additions
    # (last addition by symbol in 2025-09 and 2026-03, and DPM3, a 2023-03
    # addition whose 2023-03 row has an empty Phenotype(s) field).
    chosen["still_listed"] |= {hgnc_of(s) for s in
                               ["PROSC", "KIAA1109", "GBA", "H3F3A", "ADPRHL2",
                                "STXBP1", "EPM2A", "DPM3"]}
    for rel in ["2025-09", "2026-03"]:
        chosen["still_listed"].add(additions(rel)[-1][1])
    # class_since: for each release after 2022-09, the alphabetically first
    # gene whose current non-empty Phenotype(s) value starts in that release
    # (genes whose earlier value was merely empty are skipped: DPM3, NAXE);
    # plus three unchanged genes, picked by hand: DEPDC5 (all releases),
    # SPATA5/AFG2A (renamed) and CLCN6 (a 2024-09 addition with two classes).
    for rel in RELEASES[1:]:
        cands = sorted(
            (latest_symbol(h), h) for h in DATA[LATEST]
            if class_since(h) == rel and present(h)[0] != rel
            and all(pheno(h, r) for r in present(h)))
        if cands:
            chosen["class_since"].add(cands[0][1])
    assert present(hgnc_of("CLCN6"))[0] == "2024-09"
    chosen["class_since"] |= {hgnc_of("DEPDC5"), hgnc_of("SPATA5"),
                              hgnc_of("CLCN6")}
    return chosen


# ---------------------------------------------------------------------------
# Hand-typed questions: (kind, symbol as used in the question, polarity, text)
# polarity is only for still_listed: "still" (is it still listed?) or
# "dropped" (was it dropped/removed?).
# ---------------------------------------------------------------------------
QUESTIONS = [
    # --- first_release -----------------------------------------------------
    ("first_release", "KLHL20", None,
     "Which Genes4Epilepsy release was the first to include KLHL20?"),
    ("first_release", "RAB5C", None,
     "when did rab5c get added to genes4epilepsy"),
    ("first_release", "HNRNPH1", None,
     "I'm reviewing a variant in HNRNPH1. In what version of the G4E list "
     "did this gene first show up?"),
    ("first_release", "HK1", None,
     "HK1: first appearance in Genes4Epilepsy, which release?"),
    ("first_release", "KCNH7", None,
     "Could you tell me the earliest Genes4Epilepsy version that lists KCNH7 "
     "as an epilepsy gene?"),
    ("first_release", "CELF4", None,
     "Since when has CELF4 been part of the epilepsy gene list from "
     "Genes4Epilepsy?"),
    ("first_release", "NRDC", None,
     "Is NRDC a recent addition to G4E? Which release brought it in?"),
    ("first_release", "CXorf56", None,
     "CXorf56 was on an older panel of ours - at which Genes4Epilepsy release "
     "did that gene first enter the list?"),
    ("first_release", "AFG2B", None,
     "In which G4E release did AFG2B make its debut?"),
    ("first_release", "SCN1A", None,
     "how far back does SCN1A go in the Genes4Epilepsy releases"),
    # --- still_listed ------------------------------------------------------
    ("still_listed", "PROSC", "still",
     "Is PROSC still listed in the current Genes4Epilepsy release?"),
    ("still_listed", "KIAA1109", "dropped",
     "Has KIAA1109 been dropped from G4E at some point?"),
    ("still_listed", "GBA", "dropped",
     "was GBA removed from the genes4epilepsy list in a later update?"),
    ("still_listed", "H3F3A", "still",
     "Does the latest G4E version still carry H3F3A?"),
    ("still_listed", "ADPRHL2", "dropped",
     "Did Genes4Epilepsy delete ADPRHL2 from its gene list?"),
    ("still_listed", "STXBP1", "still",
     "Quick check: STXBP1 is still on Genes4Epilepsy as of the newest "
     "release, right?"),
    ("still_listed", "TMEM184B", "still",
     "Can I still find TMEM184B in the most recent Genes4Epilepsy list?"),
    ("still_listed", "DPM3", "still",
     "dpm3 - still present in the latest g4e?"),
    ("still_listed", "WDTC1", "dropped",
     "Was WDTC1 taken out of Genes4Epilepsy in any release after it was "
     "added?"),
    ("still_listed", "EPM2A", "dropped",
     "For a Lafora disease work-up: has EPM2A ever been excluded, i.e. "
     "removed, from the G4E gene list?"),
    # --- class_since -------------------------------------------------------
    ("class_since", "CARS2", None,
     "Since which Genes4Epilepsy release has CARS2 carried its current "
     "phenotype classification?"),
    ("class_since", "ATP6V0C", None,
     "When did ATP6V0C's phenotype classes in G4E last change to what they "
     "are now?"),
    ("class_since", "GABRB3", None,
     "GABRB3 is currently tagged GGE and DEE in Genes4Epilepsy; since what "
     "release has that been the case?"),
    ("class_since", "DYNC1H1", None,
     "from which g4e version onward has dync1h1 had its present "
     "phenotype(s) annotation"),
    ("class_since", "RORA", None,
     "How long has RORA had its current epilepsy phenotype categories in "
     "Genes4Epilepsy - since which release?"),
    ("class_since", "LGI1", None,
     "Which Genes4Epilepsy release first gave LGI1 the phenotype classes it "
     "still has in the newest list?"),
    ("class_since", "CNTNAP2", None,
     "Has CNTNAP2's phenotype annotation in G4E been stable? If not, since "
     "which release has the current one applied?"),
    ("class_since", "DEPDC5", None,
     "Since when has DEPDC5 been classed the way it is now (Focal/DEE/MCD) "
     "in Genes4Epilepsy?"),
    ("class_since", "SPATA5", None,
     "For SPATA5, what's the earliest Genes4Epilepsy release from which its "
     "phenotype column matches the current one?"),
    ("class_since", "CLCN6", None,
     "clcn6 in G4E: current phenotype classes unchanged since which release?"),
]


def src(rel, h):
    return ["%s:%d" % (fname(rel), row["_line"]) for row in DATA[rel][h]]


def gold_for(kind, h, polarity):
    pres = present(h)
    first, last = pres[0], pres[-1]
    cur = pheno(h, last)
    g = {"yes_no": None, "first_release": first, "last_release": last,
         "class_since": None, "current_classes": cur}
    cite = [first]
    if kind == "still_listed":
        in_latest = h in DATA[LATEST]
        g["yes_no"] = ("yes" if in_latest else "no") if polarity == "still" \
            else ("no" if in_latest else "yes")
    if kind == "class_since":
        cs = class_since(h)
        g["class_since"] = cs
        i = RELEASES.index(cs)
        if i > 0 and RELEASES[i - 1] in pres:
            cite.append(RELEASES[i - 1])  # the differing earlier value
        cite.append(cs)
    cite.append(last)
    seen, sources = set(), []
    for r in RELEASES:
        if r in cite and r not in seen:
            seen.add(r)
            sources += src(r, h)
    g["sources"] = sources
    return g


def verify_sources(rows):
    """Re-read the cited lines as raw text (not via csv) and check them."""
    raw = {}
    for rel in RELEASES:
        with open(os.path.join(G4E_DIR, fname(rel)), newline="") as fh:
            raw[rel] = [l.rstrip("\r\n") for l in fh.read().split("\n")]
    for q in rows:
        h = q["gene"]["hgnc"]
        g = q["gold"]
        cited = {}
        for s in g["sources"]:
            f, n = s.rsplit(":", 1)
            rel = f[len("EpilepsyGenes_v"):-len(".tsv")]
            line = raw[rel][int(n) - 1]
            cells = line.split("\t")
            assert cells[0] == h, (q["id"], s, line)
            hdr = raw[rel][0].split("\t")
            ph = cells[hdr.index("Phenotype(s)")].strip().strip('"')
            cited.setdefault(rel, set()).add(ph)
        # first release is cited, and no earlier release mentions the id
        assert g["first_release"] in cited, q["id"]
        for rel in RELEASES[:RELEASES.index(g["first_release"])]:
            assert not any(l.split("\t")[0] == h for l in raw[rel][1:]), q["id"]
        assert cited[g["last_release"]] == {g["current_classes"]}, q["id"]
        if g["class_since"]:
            cs = g["class_since"]
            for rel in RELEASES[RELEASES.index(cs):]:
                hits = [l for l in raw[rel][1:] if l.split("\t")[0] == h]
                hdr = raw[rel][0].split("\t")
                assert hits and all(
                    l.split("\t")[hdr.index("Phenotype(s)")].strip().strip('"')
                    == g["current_classes"] for l in hits), (q["id"], rel)
            i = RELEASES.index(cs)
            if i > 0 and RELEASES[i - 1] in cited:
                assert cited[RELEASES[i - 1]] != {g["current_classes"]}, q["id"]


def main():
    assert not GAPPED, GAPPED
    chosen = choose_genes()
    rows = []
    for n, (kind, sym, polarity, text) in enumerate(QUESTIONS, start=1):
        h = hgnc_of(sym)
        assert h in chosen[kind], (kind, sym)
        assert sym in symbols(h), sym
        assert sym.lower() in text.lower(), (sym, text)
        assert "genes4epilepsy" in text.lower() or "g4e" in text.lower(), text
        assert (polarity is not None) == (kind == "still_listed")
        rows.append({
            "id": "g4eh-%03d" % n,
            "kind": kind,
            "question": text,
            "gene": {"hgnc": h, "symbol": sym},
            "gold": gold_for(kind, h, polarity),
            "written_by": WRITTEN_BY,
        })
    for kind in chosen:
        got = {r["gene"]["hgnc"] for r in rows if r["kind"] == kind}
        assert got == chosen[kind], (kind, got ^ chosen[kind])
        assert sum(r["kind"] == kind for r in rows) == 10, kind
    assert len({r["gene"]["hgnc"] for r in rows}) == 30, "genes must be distinct"
    assert len({r["question"].lower() for r in rows}) == 30
    verify_sources(rows)
    with open(OUT, "w") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    print("wrote %d rows to %s" % (len(rows), OUT))
    print("HGNC ids ever listed: %d; in %s: %d" % (len(ALL_IDS), LATEST, len(DATA[LATEST])))
    print("renamed (>1 symbol per HGNC id): %d" % len(RENAMED))
    for h in RENAMED:
        new = latest_symbol(h)
        old = [x for x in symbols(h) if x != new]
        print("   %s %s -> %s (last old-symbol release %s)" % (
            h, "/".join(old), new,
            max(r for r in present(h) if any(row["Gene"] in old for row in DATA[r][h]))))
    print("dropped (not in %s): %d; with gaps: %d" % (LATEST, len(DROPPED), len(GAPPED)))
    for r in rows:
        g = r["gold"]
        print(r["id"], r["kind"], r["gene"]["symbol"], g["yes_no"], g["first_release"],
              g["class_since"], repr(g["current_classes"]), g["sources"])


if __name__ == "__main__":
    main()
