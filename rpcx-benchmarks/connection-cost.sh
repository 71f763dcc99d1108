#!/usr/bin/env bash
# What a connection costs an RPCX server (issue 18, item 6): server memory per idle connection and
# per connection with a call in flight, with 10,000 connections on 127.0.0.1 (each round a fresh
# server JVM with Native Memory Tracking), then 16-byte echo throughput with 1,000 connections x 1
# caller against 1 connection x 1,000 callers. About 5 minutes; the throughput part wants an
# otherwise idle machine (the memory part does not mind).
#
#   bash rpcx-benchmarks/connection-cost.sh [--no-build] [ConnectionCostTool options...]
#   OUT=<dir> (default rpcx-benchmarks/results/<date>-connections-<commit>, which git ignores):
#     run.log, report.md and summary.md (the command, the machine and the report: what to keep)
#   PROFILE=1: async-profiler CPU profiles of the throughput cells (server and client JVMs),
#     flame graphs and collapsed stacks (gzipped) in $OUT/profiles, where the CPU goes in report.md
#   JAVA=<java> (default java on the PATH): the JDK of both JVMs, e.g. a JDK 25 for --virtual-callers
# Options (see --help): --parts memory,throughput --connections 10000 --rounds 3 --callers 1000
#   --throughput-rounds 3 --warmup 5 --seconds 10 --direct (server calls on its event loops)
#   --virtual-callers (callers on virtual threads; Java 21+) --server-java <java> (the server JVM's)
set -euo pipefail
if [[ " $* " == *" --help "* || " $* " == *" -h "* ]]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
  if [[ -f "$(dirname "$0")/target/benchmarks.jar" ]]; then
    echo
    java -cp "$(dirname "$0")/target/benchmarks.jar" io.rpcx.benchmarks.connections.ConnectionCostTool --help
  fi
  exit 0
fi
cd "$(dirname "$0")/.."
source rpcx-benchmarks/results.sh
jar=rpcx-benchmarks/target/benchmarks.jar
command="$(command_line "OUT PROFILE JAVA JAVA_TOOL_OPTIONS" rpcx-benchmarks/connection-cost.sh "$@")"
if [[ "${1:-}" == "--no-build" ]]; then
  shift
else
  mvn -B -q -ntp -DskipTests package -pl rpcx-benchmarks -am
fi
out="${OUT:-$(results_dir connections)}"
mkdir -p "$out"
head="$(results_head "What a connection costs" "$command" "${JAVA:-java}")"
args=(--out "$out")
if [[ -n "${PROFILE:-}" ]]; then
  version=4.1
  tools="$PWD/rpcx-benchmarks/target/async-profiler"
  lib="$tools/linux-x64/libasyncProfiler.so"
  if [[ ! -f "$lib" ]]; then
    mvn -B -q -ntp dependency:copy "-Dartifact=tools.profiler:async-profiler:$version:jar:linux-x64" \
      "-DoutputDirectory=$tools"
    (cd "$tools" && jar xf "async-profiler-$version-linux-x64.jar" linux-x64/libasyncProfiler.so)
  fi
  args+=(--profile "$out/profiles" --profiler-lib "$lib")
fi
# Each side holds one descriptor per connection: raise the soft limit as far as the hard one allows.
ulimit -Sn "$(ulimit -Hn)" 2>/dev/null || true
echo "open files: $(ulimit -n) per process"
"${JAVA:-java}" -Xms1g -Xmx1g -XX:+AlwaysPreTouch -cp "$jar" io.rpcx.benchmarks.connections.ConnectionCostTool \
  "${args[@]}" "$@" 2>&1 | tee "$out/run.log"
# Collapsed stacks are large: kept gzipped next to their flame graphs.
shopt -s nullglob
for collapsed in "$out"/profiles/*.collapsed; do
  gzip -f "$collapsed"
done
# The summary: this command and the machine, then the tool's report (its title one level down).
{
  printf '%s\n\n' "$head"
  sed 's/^#/##/' "$out/report.md"
} > "$out/summary.md"
echo "summary: $out/summary.md"
