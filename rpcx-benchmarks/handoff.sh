#!/usr/bin/env bash
# The worker pool's hand-off designs (issue 32, items 3 and 7) against each other on the cells
# the hand-off decides: the 16-byte echo at 32 and 128 callers (calls/s) and one caller's latency
# (p50), each with the whole JVM's CPU per call (ProcessCpuProfiler), RPCX's default server with
# its pool built as the internal property rpcx.server.workerPool says; the raw Netty floor at 32
# callers once per round for scale. Designs take turns in rotating order each round, so that the
# machine's drift falls on each alike; the load average is logged before every cell. The design
# "virtual" is the server with a virtual thread per call instead (system rpcx-virtual; JDK 21+).
#
#   bash rpcx-benchmarks/handoff.sh                      # forkjoin spinning lifo, java on PATH
#   JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java bash rpcx-benchmarks/handoff.sh
#
# DESIGNS="forkjoin spinning lifo" (default; any of them and virtual), ROUNDS=1, CELLS="echo32
# lat1 echo128" (default), JMH="-f 1 -wi 3 -w 3s -i 3 -r 3s" (default), JAVA=java.
# OUT=<dir> (default rpcx-benchmarks/results/<date>-handoff-<jdk>-<commit>, git-ignored): every
# cell's JMH JSON and log, and summary.md (the command, the machine and its load at the start,
# the load before each cell, a table per design and cell: what to keep).
# Uses rpcx-benchmarks/target/benchmarks.jar as it is (build it first).
set -uo pipefail
if [[ "${1:-}" == "--help" || "${1:-}" == "-h" ]]; then
  sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'
  exit 0
fi
cd "$(dirname "$0")/.."
source rpcx-benchmarks/results.sh
command="$(command_line "OUT JAVA DESIGNS ROUNDS JMH CELLS" rpcx-benchmarks/handoff.sh "$@")"
java="${JAVA:-java}"
jar=rpcx-benchmarks/target/benchmarks.jar
[[ -f $jar ]] || { echo "handoff.sh: no $jar (build it: mvn -B -q -DskipTests package -pl rpcx-benchmarks -am)" >&2; exit 2; }
jdk="jdk$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')"
out="${OUT:-$(results_dir "handoff-$jdk")}"
mkdir -p "$out"
read -r -a designs <<< "${DESIGNS:-forkjoin spinning lifo}"
read -r -a jmh <<< "${JMH:--f 1 -wi 3 -w 3s -i 3 -r 3s}"
n=${#designs[@]}
head="$(results_head "Worker pool hand-off designs, $jdk" "$command" "$java")"
# The forks' own options replace the benchmark's (-jvmArgsAppend), so its heap settings come again.
heap="-Xms4g -Xmx4g -XX:+AlwaysPreTouch"
run() { # NAME BENCHMARK SYSTEM JVM-OPTIONS
  while true; do
    local line
    line="=== $1 $(date -u +%H:%M:%S) load: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "$line"
    "$java" -jar "$jar" "$2" -p workload=echo16 -p system="$3" "${jmh[@]}" -jvmArgsAppend "$4" \
      -prof io.rpcx.benchmarks.jmh.ProcessCpuProfiler -rf json -rff "$out/$1.json" > "$out/$1.log" 2>&1 \
      && { echo "$line" >> "$out/loads.txt"; return; }
    # Another JMH run holds the machine: wait for it rather than measure beside it.
    if grep -q 'Unable to acquire the JMH lock' "$out/$1.log"; then
      echo "    (another JMH run is on; waiting)"
      sleep 3
      continue
    fi
    echo "handoff.sh: $1 failed, see $out/$1.log" >&2
    return
  done
}
for round in $(seq 1 "${ROUNDS:-1}"); do
  run "floor-echo32-r$round" ThroughputBenchmark.threads032 netty "$heap"
  for ((k = 0; k < n; k++)); do
    design=${designs[$(( (k + round - 1) % n ))]}
    for cell in ${CELLS:-echo32 lat1 echo128}; do
      case $cell in
        echo32) bench=ThroughputBenchmark.threads032;;
        echo128) bench=ThroughputBenchmark.threads128;;
        lat1) bench=LatencyBenchmark.threads001;;
        *) echo "handoff.sh: unknown cell $cell (expected: echo32, lat1, echo128)" >&2; exit 2;;
      esac
      if [[ $design == virtual ]]; then
        run "$design-$cell-r$round" "$bench" rpcx-virtual "$heap"
      else
        run "$design-$cell-r$round" "$bench" rpcx "$heap -Drpcx.server.workerPool=$design"
      fi
    done
  done
done
{
  printf '%s\n\n' "$head"
  printf 'Load average (1, 5, 15 min) when each cell started (it counts the callers of the cell before):\n\n```\n%s\n```\n\n' "$(cat "$out/loads.txt")"
  /usr/bin/python3 - "$out" <<'PY'
import glob, json, os, re, sys
from collections import defaultdict
rows = defaultdict(dict)
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    name = os.path.basename(path)[:-5]
    design, cell, _ = re.match(r"(.+)-(echo32|echo128|lat1)-r(\d+)$", name).groups()
    for result in json.load(open(path)):
        primary = result["primaryMetric"]
        cpu = result["secondaryMetrics"].get("cpu.time.norm", {}).get("score")
        if cell == "lat1":
            value = "p50 %.1f µs" % primary["scorePercentiles"]["50.0"]
        else:
            value = "{:,.0f} calls/s".format(primary["score"])
        rows[design].setdefault(cell, []).append(value + ("" if cpu is None else ", %.1f µs CPU" % cpu))
cells = ["echo32", "lat1", "echo128"]
print("| design | echo16, 32 callers | echo16, 1 caller | echo16, 128 callers |")
print("|---|---|---|---|")
for design, by_cell in rows.items():
    print("| %s | %s |" % (design, " | ".join("; ".join(by_cell.get(c, ["-"])) for c in cells)))
PY
} > "$out/summary.md"
gzip -f "$out"/*.json
echo "summary: $out/summary.md"
