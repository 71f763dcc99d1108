#!/usr/bin/env bash
# Interleaved A/B/C run of the cells issue 13's first comparison disputed (1-thread latency,
# 100 x OrderInfo at 32 threads) and the 16-byte echo at 32 threads, three rounds in rotating
# order, 2 forks per cell per round. Each /tmp/jars/<commit>.jar is rpcx-benchmarks'
# benchmarks.jar built at that commit:
#   git worktree add /tmp/wt-<commit> <commit> && (cd /tmp/wt-<commit> &&
#     mvn -B -q -DskipTests package -pl rpcx-benchmarks -am) &&
#     cp /tmp/wt-<commit>/rpcx-benchmarks/target/benchmarks.jar /tmp/jars/<commit>.jar
# Usage: OUT=dir bash ab.sh 807c739 331d5d4 78b6e50; then python3 ab_stats.py dir 807c739 ...
set -u
out=${OUT:-/tmp/ab-out}; mkdir -p "$out"
arms=("$@")
n=${#arms[@]}
for round in 1 2 3; do
  for ((k = 0; k < n; k++)); do
    arm=${arms[$(( (k + round - 1) % n ))]}; jar=/tmp/jars/$arm.jar
    echo "=== round $round arm $arm $(date -u +%H:%M:%S)"
    for cell in lat orders echo; do
      case $cell in
        lat) bench='LatencyBenchmark.threads001'; workload=echo16;;
        orders) bench='ThroughputBenchmark.threads032'; workload=orders;;
        echo) bench='ThroughputBenchmark.threads032'; workload=echo16;;
      esac
      java -jar "$jar" "$bench" -p workload=$workload -p system=rpcx -f 2 -wi 3 -w 3s -i 5 -r 3s \
        -rf json -rff "$out/$cell-$arm-r$round.json" > "$out/$cell-$arm-r$round.log" 2>&1
    done
  done
done
gzip -f "$out"/*.json
echo done > "$out/done"
