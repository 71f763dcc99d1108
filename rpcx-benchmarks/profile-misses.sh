#!/usr/bin/env bash
# What bounds the cells of issue 18 that miss their targets (docs/benchmarks/HISTORY.md, "What
# bounds the misses"): context switches and CPU per call (perf's counters normalized per call by
# JMH), then async-profiler CPU profiles with the breakdown by activity (profile.sh) and
# allocation profiles. About 13 minutes; build rpcx-benchmarks/target/benchmarks.jar first.
#
#   bash rpcx-benchmarks/profile-misses.sh
#
# OUT=<dir> (default rpcx-benchmarks/results/<date>-misses-<commit>, which git ignores): the JMH
# JSON and logs, one profile.sh folder per group of cells, and summary.md (the command, the
# machine, the per-call counters and each profile's breakdown and top frames: what to keep).
set -euo pipefail
if [[ "${1:-}" == "--help" || "${1:-}" == "-h" ]]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
  exit 0
fi
cd "$(dirname "$0")/.."
source rpcx-benchmarks/results.sh
command="$(command_line "OUT" rpcx-benchmarks/profile-misses.sh "$@")"
out="${OUT:-$(results_dir misses)}"
jar=rpcx-benchmarks/target/benchmarks.jar
mkdir -p "$out"
head="$(results_head "What bounds the misses: counters and profiles" "$command")"
perfnorm() { # perfnorm <name> <jmh arguments...>
  local name="$1"
  shift
  java -jar "$jar" "$@" -f 1 -wi 3 -w 3s -i 3 -r 3s \
    -prof 'perfnorm:events=context-switches,task-clock' -rf json -rff "$out/$name.json" 2>&1 \
    | tee "$out/$name.log" | grep -E '^ThroughputBenchmark' || true
}
perfnorm perfnorm-32t 'ThroughputBenchmark.threads032' -p workload=echo16,order \
  -p system=netty,rpcx,rpcx-direct,grpc-native
perfnorm perfnorm-1t 'ThroughputBenchmark.threads001' -p workload=echo16 \
  -p system=netty,rpcx,rpcx-direct
bash rpcx-benchmarks/profile.sh --out "$out/echo16-32t" 'ThroughputBenchmark.threads032' \
  -p workload=echo16 -p system=netty,rpcx,rpcx-direct
bash rpcx-benchmarks/profile.sh --out "$out/orders-32t" 'ThroughputBenchmark.threads032' \
  -p workload=order,orders -p system=rpcx,grpc-native
bash rpcx-benchmarks/profile.sh --out "$out/string1m-1t" 'ThroughputBenchmark.threads001' \
  -p workload=string1m -p system=netty,rpcx
# Where the bytes of a 1 MiB string round trip and of 100 OrderInfo go (allocation profiles).
EVENT=alloc bash rpcx-benchmarks/profile.sh --out "$out/alloc-1t" 'ThroughputBenchmark.threads001' \
  -p workload=string1m -p system=rpcx
EVENT=alloc bash rpcx-benchmarks/profile.sh --out "$out/alloc-32t" 'ThroughputBenchmark.threads032' \
  -p workload=orders -p system=rpcx
{
  printf '%s\n\n' "$head"
  printf '## Per call: CPU (task-clock) and context switches (-prof perfnorm)\n\n'
  java -cp "$jar" io.rpcx.benchmarks.report.JmhTable "$out"/perfnorm-*.json
  for group in echo16-32t orders-32t string1m-1t alloc-1t alloc-32t; do
    printf '## Profiles: %s\n\n' "$group"
    # The cells of profile.sh's summary, without its head (this one has the command and machine).
    sed -n '/^## /,$p' "$out/$group/summary.md" | sed 's/^## /### /'
  done
} > "$out/summary.md"
echo "summary: $out/summary.md"
