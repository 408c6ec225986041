"""DTW search latency over 10,000 stored EEG vectors (SYNTHETIC recordings).

Builds 10,000 stored vectors from synthetic recordings (70 generated recordings, 7 classes, then
jittered copies — generating 10,000 full recordings would take minutes and does not change the search
cost), and times EEGIndex.search (exact banded DTW with LB_Keogh pruning) for held-out queries against
a brute-force baseline in the same run (dtw_many over every stored vector). Prints p50/p90 latency, and the
speed of EEGIndex.search with dtaidistance's C DTW (dtw_fast, the default engine) against the same search with the
numpy reference (dtw_many), on one core, with whether both give the same top-k; and both over all vectors unpruned.
usage: python benchmarks/eeg.py [--n 10000] [--queries 20] [--r 2]
"""
import argparse, time, warnings
import numpy as np
warnings.filterwarnings("ignore")
from epigraph.eeg import CLASSES, prepare, synthetic_recording
from epigraph.eeg_analysis import EEGIndex, dtw_fast, dtw_many, spectral_vector

ap = argparse.ArgumentParser(); ap.add_argument("--n", type=int, default=10_000); ap.add_argument("--queries", type=int, default=20)
ap.add_argument("--r", type=int, default=1); ap.add_argument("--snr", type=float, default=10.0)
a = ap.parse_args()
rng = np.random.default_rng(0)
labels = list(CLASSES)
base = np.stack([spectral_vector(prepare(synthetic_recording(l, 1000 + 7 * i + j, snr_db=20)[0])) for i in range(10) for j, l in enumerate(labels)])
X = base[rng.integers(len(base), size=a.n)] + rng.normal(0, 0.15, (a.n, base.shape[1]))   # jittered copies
index = EEGIndex(X, list(range(a.n)), r=a.r)
queries = [spectral_vector(prepare(synthetic_recording(labels[i % 7], 90_000 + i, snr_db=a.snr)[0])) for i in range(a.queries)]
t_index, exact = [], []
for q in queries:
    t = time.perf_counter(); index.search(q, k=1); t_index.append(time.perf_counter() - t); exact.append(index.last["exact"])
t_brute = []
for q in queries[:3]:
    t = time.perf_counter(); d = np.concatenate([dtw_many(q, X[i:i + 2000], a.r) for i in range(0, a.n, 2000)]); t_brute.append(time.perf_counter() - t)
p50, p90 = np.percentile(t_index, 50), np.percentile(t_index, 90)
print(f"stored vectors: {a.n:,} of length {X.shape[1]}; band r = {a.r}; queries: {a.queries} (SYNTHETIC EEG, SNR {a.snr:g} dB)")
print(f"EEGIndex.search (LB_Keogh + exact DTW): p50 {p50 * 1000:.1f} ms, p90 {p90 * 1000:.1f} ms; exact DTW computed for a median {int(np.median(exact))} of {a.n:,}")
print(f"brute-force exact DTW over all vectors: median {np.median(t_brute) * 1000:.0f} ms; speed-up {np.median(t_brute) / p50:.0f}x")
print(f"bar p50 <= 1 s: {'met' if p50 <= 1 else 'NOT met'}")
t_np, t_c, same = [], [], []
numpy_index = EEGIndex(X, list(range(a.n)), r=a.r, engine="numpy")     # the numpy reference, same LB_Keogh order
for q in queries:     # both engines, query by query in this run: the ratio is what to compare
    t = time.perf_counter(); h_np = numpy_index.search(q, k=5); t_np.append(time.perf_counter() - t)
    t = time.perf_counter(); h_c = index.search(q, k=5); t_c.append(time.perf_counter() - t)
    same.append(h_np.id.tolist() == h_c.id.tolist())
ratio = np.median(t_np) / np.median(t_c)
print(f"EEGIndex.search, top 5 of {a.n:,}: numpy DTW {np.median(t_np) * 1000:.1f} ms, dtaidistance C DTW "
      f"{np.median(t_c) * 1000:.1f} ms ({ratio:.1f}x); same top-5 for {sum(same)} of {len(same)} queries; "
      f"bar >= 5x with the same top-k: {'met' if ratio >= 5 and all(same) else 'NOT met'}")
q = queries[0]
t = time.perf_counter(); d_np = dtw_many(q, X, a.r); t1 = time.perf_counter() - t
t = time.perf_counter(); d_c = dtw_fast(q, X, a.r); t2 = time.perf_counter() - t
print(f"DTW to all {a.n:,} vectors (no pruning): numpy {t1 * 1000:.0f} ms, C {t2 * 1000:.0f} ms ({t1 / t2:.1f}x); "
      f"largest difference {np.abs(d_np - d_c).max():.1e}")
