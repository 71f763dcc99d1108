#!/usr/bin/env bash
# Profiles JMH benchmark cells with async-profiler (the Linux x64 build from Maven Central) and
# keeps the flat profile (top frames) and a flame graph per cell:
#
#   bash rpcx-benchmarks/profile.sh <out-dir> <JMH arguments...>
#   bash rpcx-benchmarks/profile.sh docs/benchmarks/profiles/latency-1t \
#       'ThroughputBenchmark.threads001' -p workload=echo16 -p system=rpcx,rpcx-direct,netty
#
# EVENT=cpu (default; async-profiler falls back to a timer where perf events are not allowed),
# wall, alloc or lock. Uses rpcx-benchmarks/target/benchmarks.jar as it is (build it first).
# Next to each profile: the flat top (summary-*-top.txt) and, from every sampled stack, the share
# of the CPU by what the stack was doing (summary-*-breakdown.txt: encoding, decoding, kernel
# network, wake-ups, GC, JIT...).
set -euo pipefail
cd "$(dirname "$0")/.."
if (($# < 2)); then
  sed -n '2,10p' "$0"
  exit 2
fi
out="$1"
shift
version=4.1
tools="$PWD/rpcx-benchmarks/target/async-profiler"
lib="$tools/linux-x64/libasyncProfiler.so"
if [[ ! -f "$lib" ]]; then
  mvn -B -q -ntp dependency:copy "-Dartifact=tools.profiler:async-profiler:$version:jar:linux-x64" \
    "-DoutputDirectory=$tools"
  (cd "$tools" && jar xf "async-profiler-$version-linux-x64.jar" linux-x64/libasyncProfiler.so)
fi
mkdir -p "$out"
java -jar rpcx-benchmarks/target/benchmarks.jar "$@" -f 1 -wi 3 -w 3s -i 3 -r 5s \
  -prof "async:libPath=$lib;event=${EVENT:-cpu};output=text,flamegraph,collapsed;dir=$out" 2>&1 \
  | tee "$out/jmh.log" | grep -E '^(# Parameters|Iteration|[A-Z][A-Za-z]*Benchmark\.)' || true
# The flat part of each text profile ("ns percent samples top"), 40 frames, next to the full one.
for summary in "$out"/*/summary-*.txt; do
  [[ -f "$summary" ]] || continue
  awk '/ns +percent +samples +top/ {flat = 1} flat && n++ < 42' "$summary" > "${summary%.txt}-top.txt"
done
# Each stack (collapsed: "root;...;leaf count") counted once, in the first category it matches.
for collapsed in "$out"/*/collapsed-*.csv; do
  [[ -f "$collapsed" ]] || continue
  awk '
    {
      count = $NF; stack = $0; sub(/ [0-9]+$/, "", stack); total += count
      if (stack ~ /ProtoWriter|Codec\.write|Codecs?\$[A-Za-z]+\.write|PojoField[$A-Za-z]*\.write/) k = "codec: encode"
      else if (stack ~ /Codec\.read|Codecs?\$[A-Za-z]+\.read|PojoField|CodedInputStream|Utf8Strings/) k = "codec: decode"
      else if (stack ~ /G1|ParScan|Evac|GCTask|ConcurrentGC|gc_/) k = "GC"
      else if (stack ~ /C2Compiler|C1Compiler|CompileBroker|Compilation::/) k = "JIT compiler"
      else if (stack ~ /tcp_|sock_|skb|ip_|netif|loopback|__sys_sendmsg|__sys_recvfrom|_copy_(to|from)_iter/) k = "kernel: TCP on loopback"
      else if (stack ~ /futex|[Pp]ark|epoll_wait|schedule/) k = "wake-ups, parking, epoll"
      else if (stack ~ /io\.netty/) k = "Netty (other)"
      else if (stack ~ /io\.rpcx/) k = "RPCX (other)"
      else k = "other"
      share[k] += count
    }
    END {
      for (k in share) printf "%6.1f%%  %s\n", 100 * share[k] / total, k
    }' "$collapsed" | sort -rn > "$(dirname "$collapsed")/summary-cpu-breakdown.txt"
done
echo "profiles: $out"
