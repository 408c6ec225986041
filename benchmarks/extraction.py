"""Throughput of entity extraction (NER + normalisation) on the BC5CDR development set, on one core.

Prints abstracts/s for the dictionary path (exact + alias: what `extract_entities(..., fast=True)` runs) and
for the full cascade (+ fuzzy + TF-IDF embedding), next to a naive baseline measured in the same run: a
Python dict lookup of every 1–6-token window of the lower-cased text in the same lexicon (no offsets kept,
no case rules, no abbreviations). Building the lexicon and the normaliser is timed separately.
Run: python benchmarks/extraction.py [--repeats 3]
"""
import argparse, os, re, statistics, time

def one_core():
    "Pin this process to one CPU and keep numeric libraries single-threaded."
    for v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"): os.environ[v] = "1"
    if hasattr(os, "sched_setaffinity"): os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})

def rate(f, texts, repeats):
    "Median abstracts/s of f over the texts."
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter(); f(); times.append(time.perf_counter() - t0)
    return len(texts) / statistics.median(times)

def main(repeats: int = 3):
    one_core()
    from epigraph.sources import load_bc5cdr
    from epigraph.lexicon import load_lexicon
    from epigraph.normalise import default_normaliser, extract_entities, entity_scores, DICTIONARY_STAGES
    dev = load_bc5cdr("dev"); docs = dev["documents"]; texts = docs.text.tolist()
    t0 = time.perf_counter(); terms = load_lexicon()["terms"]; t_lex = time.perf_counter() - t0
    t0 = time.perf_counter(); fast = default_normaliser(stages=DICTIONARY_STAGES); t_norm = time.perf_counter() - t0
    full = default_normaliser()
    keys = set(terms.key)
    def baseline():
        n = 0
        for t in texts:
            toks = re.findall(r"\w+", t.lower())
            for i in range(len(toks)):
                for j in range(i + 1, min(i + 7, len(toks) + 1)):
                    n += " ".join(toks[i:j]) in keys
        return n
    r_base = rate(baseline, texts, repeats)
    r_fast = rate(lambda: extract_entities(docs, fast), texts, repeats)
    extract_entities(docs, full)   # warm the fuzzy/embedding index once
    r_full = rate(lambda: extract_entities(docs, full), texts, repeats)
    print(f"BC5CDR dev: {len(texts)} abstracts, lexicon {len(terms):,} rows ({t_lex:.1f} s to load), "
          f"normaliser built in {t_norm:.1f} s (incl. the term-precision filter over 500 training abstracts); one core")
    print(f"naive n-gram dict lookup (baseline): {r_base:8,.0f} abstracts/s")
    print(f"dictionary path (NER + exact/alias): {r_fast:8,.0f} abstracts/s  ({r_fast / r_base:.2f}x baseline)  bar: >= 1,000")
    print(f"full cascade (+ fuzzy + embedding):  {r_full:8,.0f} abstracts/s  ({r_full / r_base:.2f}x baseline)")
    for name, norm in (("dictionary path", fast), ("full cascade", full)):
        s = entity_scores(extract_entities(docs, norm), dev["mentions"]).set_index("type")
        print(f"{name}: " + "; ".join(f"{t} P {s.loc[t, 'precision']:.3f} R {s.loc[t, 'recall']:.3f} F1 {s.loc[t, 'f1']:.3f}" for t in ("Chemical", "Disease")))

if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0]); ap.add_argument("--repeats", type=int, default=3)
    main(ap.parse_args().repeats)
