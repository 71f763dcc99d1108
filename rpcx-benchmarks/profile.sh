#!/usr/bin/env bash
# Profiles JMH benchmark cells with async-profiler (the Linux x64 build from Maven Central) and
# keeps, per cell, the flame graph, the full text profile, its flat top (summary-*-top.txt) and,
# from every sampled stack, the share of the CPU by what the stack was doing
# (summary-*-breakdown.txt: encoding, decoding, kernel network, wake-ups, GC, JIT...); for
# allocations also the bytes by the last RPCX frame and the type allocated
# (summary-alloc-owners.txt):
#
#   bash rpcx-benchmarks/profile.sh [--out DIR] <JMH arguments...>
#   bash rpcx-benchmarks/profile.sh 'ThroughputBenchmark.threads001' -p workload=echo16 \
#       -p system=rpcx,rpcx-direct,netty
#
# DIR defaults to rpcx-benchmarks/results/<date>-profile-<commit>/, which git ignores; its
# summary.md (the command, the machine, each cell's breakdown and top frames) is what to keep.
# EVENT=cpu (default; async-profiler falls back to a timer where perf events are not allowed),
# wall, alloc or lock. Uses rpcx-benchmarks/target/benchmarks.jar as it is (build it first).
set -euo pipefail
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
command="$(command_line "EVENT" rpcx-benchmarks/profile.sh "$@")"
out=""
if [[ "$1" == "--out" ]]; then
  (($# >= 3)) || { echo "profile.sh: --out needs a folder and JMH arguments after it" >&2; exit 2; }
  out="$2"
  shift 2
fi
out="${out:-$(results_dir profile)}"
event="${EVENT:-cpu}"
version=4.1
tools="$PWD/rpcx-benchmarks/target/async-profiler"
lib="$tools/linux-x64/libasyncProfiler.so"
if [[ ! -f "$lib" ]]; then
  mvn -B -q -ntp dependency:copy "-Dartifact=tools.profiler:async-profiler:$version:jar:linux-x64" \
    "-DoutputDirectory=$tools"
  (cd "$tools" && jar xf "async-profiler-$version-linux-x64.jar" linux-x64/libasyncProfiler.so)
fi
mkdir -p "$out"
head="$(results_head "Profile ($event): $*" "$command")"
java -jar rpcx-benchmarks/target/benchmarks.jar "$@" -f 1 -wi 3 -w 3s -i 3 -r 5s \
  -prof "async:libPath=$lib;event=$event;output=text,flamegraph,collapsed;dir=$out" 2>&1 \
  | tee "$out/jmh.log" | grep -E '^(# Parameters|Iteration|[A-Z][A-Za-z]*Benchmark\.)' || true
# The flat part of each text profile ("ns percent samples top", "bytes ..." for allocations), 40
# frames, next to the full one.
for summary in "$out"/*/summary-"$event".txt; do
  [[ -f "$summary" ]] || continue
  awk '/(ns|bytes|samples) +percent +samples +top/ {flat = 1} flat && n++ < 42' "$summary" \
    > "${summary%.txt}-top.txt"
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
    }' "$collapsed" | sort -rn > "$(dirname "$collapsed")/summary-${event}-breakdown.txt"
  if [[ "$event" == alloc ]]; then
    # Who allocates what: each stack by its last RPCX frame (outside this module) and the type
    # allocated (the leaf), the 25 largest shares.
    awk '
      {
        count = $NF; stack = $0; sub(/ [0-9]+$/, "", stack); total += count
        n = split(stack, frame, ";"); type = frame[n]; sub(/_\[[a-z]\]$/, "", type)
        owner = "(no RPCX frame)"
        for (i = n - 1; i > 0; i--) {
          if (frame[i] ~ /^io[\/.]rpcx[\/.]/ && frame[i] !~ /^io[\/.]rpcx[\/.]benchmarks[\/.]/) {
            owner = frame[i]
            break
          }
        }
        share[owner "  " type] += count
      }
      END {
        for (k in share) printf "%6.1f%%  %s\n", 100 * share[k] / total, k
      }' "$collapsed" | sort -rn | head -n 25 > "$(dirname "$collapsed")/summary-alloc-owners.txt"
  fi
done
# The summary: per cell (a folder JMH's profiler names after the benchmark and its parameters),
# the breakdown and the top 20 frames.
{
  printf '%s\n\n' "$head"
  for cell in "$out"/*/; do
    tops=("$cell"summary-*-top.txt)
    [[ -f "${tops[0]}" ]] || continue
    printf '## %s\n\n' "$(basename "$cell")"
    for breakdown in "$cell"summary-*-breakdown.txt; do
      [[ -f "$breakdown" ]] || continue
      printf 'Share of the samples by activity:\n\n```\n%s\n```\n\n' "$(cat "$breakdown")"
    done
    if [[ -f "$cell"summary-alloc-owners.txt ]]; then
      printf 'Bytes by the last RPCX frame and the type allocated:\n\n```\n%s\n```\n\n' \
        "$(cat "$cell"summary-alloc-owners.txt)"
    fi
    for top in "${tops[@]}"; do
      printf 'Top frames (%s):\n\n```\n%s\n```\n\n' "$(basename "$top")" "$(head -n 22 "$top")"
    done
  done
} > "$out/summary.md"
echo "profiles: $out; summary: $out/summary.md"
