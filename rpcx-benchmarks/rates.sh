#!/usr/bin/env bash
# Runs JMH throughput cells while rates.py samples /proc twice a second, then prints, per
# iteration, the calls per second beside what they cost: the machine's user and system CPU per
# call, its idle share, each thread group's CPU per call (callers, client and server event loops,
# server workers, JIT, GC) and the voluntary context switches per call (of the callers, of the
# others). Made to tell apart the two
# rates RPCX's cells switch between (docs/BENCHMARKS.md, "Two rates"): whether a slow stretch does
# more per call (more wake-ups, smaller batches) or the same work at a higher cost.
#
#   bash rpcx-benchmarks/rates.sh [--out DIR] <JMH arguments...>
#   bash rpcx-benchmarks/rates.sh 'ThroughputBenchmark.threads032' -p workload=echo16 \
#       -p system=rpcx -f 3 -wi 2 -w 3s -i 12 -r 2s
#
# DIR defaults to rpcx-benchmarks/results/<date>-rates-<commit>/ (ignored by git): jmh.log (each
# line stamped with the epoch seconds), samples.jsonl, and summary.md (the command, the machine,
# the table). JAR (default rpcx-benchmarks/target/benchmarks.jar) is the benchmark jar to run;
# DIR and JAR are relative to the repository root. Needs bash 5 ($EPOCHREALTIME).
# Linux only (/proc). One cell at a time: the table takes the iterations in the log's order.
set -euo pipefail
export LC_ALL=C # a decimal point in the stamps and in JMH's scores, whatever the user's locale
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
if (($# == 0)); then
  usage >&2
  exit 2
elif [[ "$1" == "--help" || "$1" == "-h" ]]; then
  usage
  exit 0
fi
cd "$(dirname "$0")/.."
source rpcx-benchmarks/results.sh
command="$(command_line "JAR" rpcx-benchmarks/rates.sh "$@")"
out=""
if [[ "$1" == "--out" ]]; then
  (($# >= 3)) || { echo "rates.sh: --out needs a folder and JMH arguments after it" >&2; exit 2; }
  out="$2"
  shift 2
fi
out="${out:-$(results_dir rates)}"
jar="${JAR:-rpcx-benchmarks/target/benchmarks.jar}"
[[ -n "${EPOCHREALTIME-}" ]] || { echo "rates.sh: needs bash 5 (\$EPOCHREALTIME)" >&2; exit 2; }
[[ -f "$jar" ]] || { echo "rates.sh: no $jar (mvn -B -DskipTests package -pl rpcx-benchmarks -am)" >&2; exit 2; }
mkdir -p "$out"
python3 rpcx-benchmarks/rates.py sample "$out/samples.jsonl" $$ &
sampler=$!
trap 'kill "$sampler" 2>/dev/null || true' EXIT
status=0
java -jar "$jar" "$@" 2>&1 | while IFS= read -r line; do
  printf '%s %s\n' "$EPOCHREALTIME" "$line"
done > "$out/jmh.log" || status=$?
kill "$sampler" 2>/dev/null || true
wait "$sampler" 2>/dev/null || true
((status == 0)) || echo "rates.sh: JMH exited with $status: $out/jmh.log" >&2
table="$(python3 rpcx-benchmarks/rates.py report "$out/jmh.log" "$out/samples.jsonl")" \
  || exit $((status ? status : 1))
{
  results_head "CPU per call by thread, per iteration: $*" "$command"
  echo
  echo '```'
  echo "$table"
  echo '```'
} > "$out/summary.md"
echo "$table"
echo "summary: $out/summary.md"
exit "$status"
