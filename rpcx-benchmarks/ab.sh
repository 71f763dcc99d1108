#!/usr/bin/env bash
# Interleaved A/B(/C...) run of commits on the cells issue 13's first comparison disputed (1-thread
# latency, 100 x OrderInfo at 32 threads) and the 16-byte echo at 32 threads as a control: ROUNDS
# rounds, the arms in rotating order, FORKS forks per cell per round, one RPCX system (SYSTEM). Interleaving puts
# the machine's drift into every arm alike, which back-to-back runs do not.
#
#   bash rpcx-benchmarks/ab.sh 807c739 331d5d4 78b6e50
#
# Each arm is a commit whose rpcx-benchmarks jar is JARS/<commit>.jar (default JARS=/tmp/jars):
#   git worktree add /tmp/wt-<commit> <commit> && (cd /tmp/wt-<commit> &&
#     mvn -B -q -DskipTests package -pl rpcx-benchmarks -am) &&
#     cp /tmp/wt-<commit>/rpcx-benchmarks/target/benchmarks.jar /tmp/jars/<commit>.jar
# OUT=<dir> (default rpcx-benchmarks/results/<date>-ab-<arms>-<commit>, which git ignores): the
#   JMH JSON and log of every cell, arm and round, stats.txt (ab_stats.py: mean, 95% interval and
#   change against the first arm, per fork) and summary.md (the command, the machine, the stats:
#   what to keep). CELLS="lat orders echo" (default) picks cells (also string1m, bytes1m: a 1 MiB
#   string or byte[] echoed by one caller; stream1, stream32: a server stream of 10,000 16-byte
#   strings, one stream at a time or 32 at once, in messages per second);
#   ROUNDS=3, FORKS=2 (defaults); SYSTEM=rpcx (default) the benchmark system of every cell, e.g.
#   rpcx-metrics for what observing costs.
set -uo pipefail
usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
if (($# == 0)); then
  usage >&2
  exit 2
elif [[ "$1" == "--help" || "$1" == "-h" ]]; then
  usage
  exit 0
fi
cd "$(dirname "$0")/.."
source rpcx-benchmarks/results.sh
command="$(command_line "OUT JARS CELLS ROUNDS FORKS SYSTEM" rpcx-benchmarks/ab.sh "$@")"
arms=("$@")
n=${#arms[@]}
jars="${JARS:-/tmp/jars}"
for arm in "${arms[@]}"; do
  [[ -f "$jars/$arm.jar" ]] || { echo "ab.sh: no $jars/$arm.jar (build it as this script's header says)" >&2; exit 2; }
done
arm_names="${arms[*]}"
out="${OUT:-$(results_dir "ab-${arm_names// /-}")}"
mkdir -p "$out"
head="$(results_head "Interleaved A/B: ${arms[*]}" "$command")"
for round in $(seq 1 "${ROUNDS:-3}"); do
  for ((k = 0; k < n; k++)); do
    arm=${arms[$(( (k + round - 1) % n ))]}
    echo "=== round $round arm $arm $(date -u +%H:%M:%S)"
    for cell in ${CELLS:-lat orders echo}; do
      case $cell in
        lat) bench='LatencyBenchmark.threads001'; workload=echo16;;
        orders) bench='ThroughputBenchmark.threads032'; workload=orders;;
        echo) bench='ThroughputBenchmark.threads032'; workload=echo16;;
        string1m) bench='ThroughputBenchmark.threads001'; workload=string1m;;
        bytes1m) bench='ThroughputBenchmark.threads001'; workload=bytes1m;;
        stream1) bench='StreamBenchmark.streams01'; workload=text16;;
        stream32) bench='StreamBenchmark.streams32'; workload=text16;;
        *) echo "ab.sh: unknown cell $cell (expected: lat, orders, echo, string1m, bytes1m, stream1, stream32)" >&2; exit 2;;
      esac
      param=workload
      [[ $cell == stream* ]] && param=payload # StreamBenchmark's parameter
      java -jar "$jars/$arm.jar" "$bench" -p $param=$workload -p system="${SYSTEM:-rpcx}" -f "${FORKS:-2}" \
        -wi 3 -w 3s -i 5 -r 3s -rf json -rff "$out/$cell-$arm-r$round.json" \
        > "$out/$cell-$arm-r$round.log" 2>&1
    done
  done
done
gzip -f "$out"/*.json
python3 rpcx-benchmarks/ab_stats.py "$out" "${arms[@]}" > "$out/stats.txt"
{
  printf '%s\n\n' "$head"
  printf 'Per fork of every round (ab_stats.py): mean, 95%% interval, range, change against %s.\n\n' "${arms[0]}"
  printf '```\n%s\n```\n' "$(cat "$out/stats.txt")"
} > "$out/summary.md"
echo "summary: $out/summary.md"
