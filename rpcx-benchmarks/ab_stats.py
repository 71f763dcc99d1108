#!/usr/bin/env python3
"""Per-fork statistics of an interleaved A/B run (ab.sh): python3 rpcx-benchmarks/ab_stats.py DIR ARM...

For each cell (lat = LatencyBenchmark.threads001, orders/echo = ThroughputBenchmark.threads032,
stream1/stream32 = StreamBenchmark.streams01/streams32, in messages per second)
and arm, over every fork of every round: the mean, its 95% confidence interval (Student t), the
range, and the change against the first arm. Latency: each fork's p50 and p99 from its histogram.
"""
import glob, gzip, json, math, os, re, statistics as st, sys

T95 = {1: 12.71, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262}

def load(path):
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt') as f:
        return json.load(f)[0]

def quantile(histogram, q):
    total = sum(c for _, c in histogram)
    seen = 0
    for value, count in sorted(histogram):
        seen += count
        if seen >= q * total:
            return value

def forks(directory, cell, arm):
    p50, p99, ops = [], [], []
    for path in sorted(glob.glob(os.path.join(directory, f'{cell}-{arm}-r*.json*'))):
        metric = load(path)['primaryMetric']
        if cell == 'lat':
            for fork in metric['rawDataHistogram']:
                merged = [pair for iteration in fork for pair in iteration]
                p50.append(quantile(merged, 0.50))
                p99.append(quantile(merged, 0.99))
        else:
            ops += [st.mean(iterations) for iterations in metric['rawData']]
    return {'p50 us': p50, 'p99 us': p99} if cell == 'lat' else {'ops/s': ops}

def main(directory, arms):
    cells = sorted({re.match(r'([a-z0-9]+)-', os.path.basename(p)).group(1)
                    for p in glob.glob(os.path.join(directory, '*-r*.json*'))})
    for cell in cells:
        base = forks(directory, cell, arms[0])
        for arm in arms:
            for measure, values in forks(directory, cell, arm).items():
                if len(values) < 2:
                    continue
                mean = st.mean(values)
                ci = T95.get(len(values) - 1, 2.0) * st.stdev(values) / math.sqrt(len(values))
                change = (mean - st.mean(base[measure])) / st.mean(base[measure]) * 100
                print(f'{cell:7} {arm:8} {measure:6} n={len(values)} mean {mean:10.1f} '
                      f'± {ci:8.1f}  range {min(values):.1f}-{max(values):.1f}  {change:+6.1f}%')

if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2:])
