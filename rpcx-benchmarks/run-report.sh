#!/usr/bin/env bash
# Runs the measurements of docs/BENCHMARKS.md. Raw results (JMH JSON and logs, the stress tool's
# CSV, HTML and PNG charts) go to OUT, by default rpcx-benchmarks/results/<date>-<phases>-<commit>/,
# which git ignores; OUT/summary.md is what to keep: the command, the machine, JmhSummary's,
# StreamSummary's and GrpcEndpointSummary's tables, the codec sizes, the stress summaries and every
# JMH result (JmhTable).
# Publishing a run = copying summary.md (and small CSVs) to docs/benchmarks/<date>-<name>/.
# About 3 hours on 2 cores (targets ~25 min, matrix ~80, codec ~6, stress-quick ~8, stress-990
# ~40); run it on an otherwise idle machine.
#   --no-build: use rpcx-benchmarks/target/benchmarks.jar as it is
#   PHASES="targets matrix codec stress-quick stress-990" (default: all, in this order; also
#     "last-mile", ~40 min, issue 32's cells in one run, "newest-jdk", ~10 min, its JDK 21+ cells,
#     "observability", ~10 min, "baselines", ~40 min, "costs", ~25 min, "warmup", ~6 min,
#     "virtual-threads", ~12 min, "streams", ~45 min, "grpc-endpoint", ~30 min, and "http-json",
#     ~15 min, not in the default list)
#   VT_JAVA=/path/to/jdk-21+/bin/java (default: the newest JDK 21+ under /usr/lib/jvm) runs the
#     virtual-threads phase; VT_ARGS="-f 3 -wi 3 -w 3s -i 5 -r 3s" (default) its JMH lengths
#   MATRIX_ARGS="-f 1 -wi 2 -w 3s -i 3 -r 4s" (default) JMH lengths of the matrix phase
#   STREAM_ARGS="-f 3 -wi 3 -w 3s -i 5 -r 3s" (default) JMH lengths of the streams phase's main run
#   GRPC_ARGS="-f 3 -wi 5 -w 3s -i 5 -r 3s" (default) JMH lengths of the grpc-endpoint phase (its
#     server JVMs compile while the first warm-up iterations run, and ServerCpuProfiler has no
#     figure for a fork's first iteration: keep 15 s of warm-up)
#   HTTP_ARGS="-f 3 -wi 5 -w 3s -i 5 -r 3s" (default) JMH lengths of the http-json phase (server
#     JVMs, as grpc-endpoint's)
#   STRESS_RUNS=10 (default, the paper's) runs per cell of stress-990, the first dropped
#   OUT=<dir>: where to write; invocations may share one OUT, and its summary then has every
#     invocation's command and every phase's results
set -euo pipefail
if [[ "${1:-}" == "--help" || "${1:-}" == "-h" ]]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
  exit 0
fi
cd "$(dirname "$0")/.."
source rpcx-benchmarks/results.sh
command="$(command_line "OUT PHASES VT_JAVA VT_ARGS MATRIX_ARGS STREAM_ARGS GRPC_ARGS HTTP_ARGS STRESS_RUNS" \
  rpcx-benchmarks/run-report.sh "$@")"
phases="${PHASES:-targets matrix codec stress-quick stress-990}"
name=report
if [[ -n "${PHASES:-}" ]]; then
  name="${PHASES// /-}"
fi
out="${OUT:-$(results_dir "$name")}"
jar=rpcx-benchmarks/target/benchmarks.jar
matrix_args="${MATRIX_ARGS:--f 1 -wi 2 -w 3s -i 3 -r 4s}"
stream_args="${STREAM_ARGS:--f 3 -wi 3 -w 3s -i 5 -r 3s}"
grpc_args="${GRPC_ARGS:--f 3 -wi 5 -w 3s -i 5 -r 3s}"
http_args="${HTTP_ARGS:--f 3 -wi 5 -w 3s -i 5 -r 3s}"
if [[ "${1:-}" != "--no-build" ]]; then
  mvn -B -q -ntp -DskipTests package -pl rpcx-benchmarks -am
fi
mkdir -p "$out"
echo "output: $out"
# Each invocation into OUT adds its command and machine to the head of the summary.
results_head "Benchmarks: $phases" "$command" >> "$out/runs.md"

newest_java() { # the java of VT_JAVA, or of the newest JDK 21+ under /usr/lib/jvm
  if [[ -n "${VT_JAVA:-}" ]]; then
    echo "$VT_JAVA"
    return
  fi
  # By the feature version in the JDK's release file, not the folder's name (sort -V on the names
  # ranks temurin-21 above java-25-openjdk).
  local jdk version best="" best_version=0
  for jdk in /usr/lib/jvm/*/; do
    version="$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$jdk/release" 2>/dev/null || true)"
    if [[ -n "$version" && -x "$jdk/bin/java" ]] && ((version >= 21 && version > best_version)); then
      best="${jdk%/}" best_version="$version"
    fi
  done
  [[ -n "$best" ]] || { echo "no JDK 21+ under /usr/lib/jvm; set VT_JAVA" >&2; exit 2; }
  echo "$best/bin/java"
}

jmh() { # jmh <name> <jmh arguments...>; files named newest-jdk-* run on newest_java
  local name="$1" java=java
  shift
  if [[ "$name" == newest-jdk-* ]]; then
    java="$(newest_java)"
    "$java" -version 2>&1 | head -n 1 > "$out/newest-jdk.txt" # the summary's heading
  fi
  "$java" -jar "$jar" "$@" -rf json -rff "$out/jmh-$name.json" 2>&1 | tee "$out/jmh-$name.log" \
    | grep -E '^(# Benchmark:|# Parameters|Iteration|[A-Z][A-Za-z]*Benchmark\.)' || true
}

for phase in $phases; do
  echo "=== $phase ($(date -u +%H:%M:%S))"
  case "$phase" in
    targets)
      # The cells the speed targets are about, 3 forks each; rpcx-direct (implementation code on the
      # event loop) shows what the worker-pool hand-off costs.
      jmh targets-echo16-32t 'ThroughputBenchmark.threads032' -p workload=echo16 \
        -p system=rpcx,rpcx-direct,netty,grpc,dubbo,feign -f 3 -wi 3 -w 3s -i 5 -r 3s
      jmh targets-latency-1t 'LatencyBenchmark.threads001' -p workload=echo16 \
        -p system=rpcx,rpcx-direct,netty,grpc -f 3 -wi 3 -w 3s -i 5 -r 3s
      jmh targets-orders-32t 'ThroughputBenchmark.threads032' -p workload=order,orders \
        -p system=rpcx,grpc -f 3 -wi 3 -w 3s -i 5 -r 3s
      jmh targets-bytes1m-1t 'ThroughputBenchmark.threads001' -p workload=bytes1m \
        -p system=rpcx,netty -f 3 -wi 3 -w 3s -i 5 -r 3s
      ;;
    last-mile)
      # Issue 32's targets in one run, 3 forks per cell, against the strongest baselines: the
      # default server (rpcx, worker pool), methods that never block on the event loop
      # (rpcx-nonblocking) and the batching floor (netty) at 32 and 128 threads, with the JVM's CPU
      # per call (ProcessCpuProfiler reads the kernel's counter once per iteration); one caller's
      # latency; OrderInfo and 100 of them against grpc-java with POJOs and with its own messages,
      # with bytes per call (-prof gc); 1 MiB values from one caller. (What Observation costs is
      # phase observability, which measures rpcx beside the observed systems in one invocation.)
      jmh last-mile-echo16-32t 'ThroughputBenchmark.threads032' -p workload=echo16 \
        -p system=netty,rpcx,rpcx-nonblocking,rpcx-direct,grpc,grpc-native,dubbo,feign \
        -prof io.rpcx.benchmarks.jmh.ProcessCpuProfiler -f 3 -wi 3 -w 3s -i 5 -r 3s
      jmh last-mile-echo16-128t 'ThroughputBenchmark.threads128' -p workload=echo16 \
        -p system=netty,rpcx,rpcx-nonblocking -f 3 -wi 3 -w 3s -i 5 -r 3s
      jmh last-mile-latency-1t 'LatencyBenchmark.threads001' -p workload=echo16 \
        -p system=netty,rpcx,rpcx-nonblocking,grpc -f 3 -wi 3 -w 3s -i 5 -r 3s
      jmh last-mile-orders-32t 'ThroughputBenchmark.threads032' -p workload=order,orders \
        -p system=rpcx,grpc,grpc-native -prof gc -f 3 -wi 3 -w 3s -i 5 -r 3s
      jmh last-mile-large-1t 'ThroughputBenchmark.threads001' -p workload=string1m,bytes1m \
        -p system=netty,rpcx -f 3 -wi 3 -w 3s -i 5 -r 3s
      ;;
    newest-jdk)
      # Issue 32 item 7: the echo and OrderInfo cells of last-mile on the newest JDK 21+ under
      # /usr/lib/jvm (or VT_JAVA): rpcx is the worker pool (workerPool(), the LIFO design from
      # Java 21), rpcx-virtual a virtual thread per call (the default from Java 24); a table of its
      # own in the summary (these cells would otherwise replace JDK 17's).
      jmh newest-jdk-echo16-32t 'ThroughputBenchmark.threads032' -p workload=echo16 \
        -p system=netty,rpcx,rpcx-nonblocking,rpcx-virtual \
        -prof io.rpcx.benchmarks.jmh.ProcessCpuProfiler -f 3 -wi 3 -w 3s -i 5 -r 3s
      jmh newest-jdk-orders-32t 'ThroughputBenchmark.threads032' -p workload=order,orders \
        -p system=rpcx,grpc-native -prof gc -f 3 -wi 3 -w 3s -i 5 -r 3s
      ;;
    baselines)
      # Issue 18's strongest baselines beside RPCX, 3 forks per cell: netty (the floor: callers'
      # frames batched, one flush per event-loop turn) and the labelled netty-flush-per-call that
      # the older tables used; grpc-native (generated messages, no conversion) beside grpc (POJOs).
      # Every fork gets RpcBenchmark's -Xms4g -Xmx4g -XX:+AlwaysPreTouch (no -jvmArgsAppend here,
      # which would replace them).
      jmh baselines-echo16-32t 'ThroughputBenchmark.threads032' -p workload=echo16 \
        -p system=netty,netty-flush-per-call,rpcx,rpcx-direct,grpc,grpc-native,dubbo,feign \
        -f 3 -wi 3 -w 3s -i 5 -r 3s
      jmh baselines-latency-1t 'LatencyBenchmark.threads001' -p workload=echo16 \
        -p system=netty,netty-flush-per-call,rpcx,grpc,grpc-native -f 3 -wi 3 -w 3s -i 5 -r 3s
      jmh baselines-orders-32t 'ThroughputBenchmark.threads032' -p workload=order,orders \
        -p system=rpcx,grpc,grpc-native -f 3 -wi 3 -w 3s -i 5 -r 3s
      jmh baselines-echo16-128t 'ThroughputBenchmark.threads128' -p workload=echo16 \
        -p system=netty,rpcx,grpc,grpc-native -f 3 -wi 3 -w 3s -i 5 -r 3s
      jmh baselines-bytes1m-1t 'ThroughputBenchmark.threads001' -p workload=bytes1m,string1m \
        -p system=netty,netty-flush-per-call,rpcx -f 3 -wi 3 -w 3s -i 5 -r 3s
      ;;
    costs)
      # Issue 18: what a call costs, client and server together (they share the JVM): the JVM's
      # CPU time per call over each measured iteration (ProcessCpuProfiler) and bytes allocated
      # per call (-prof gc). Per-call norms, not throughput: 1 fork per cell; the scores of these
      # runs are not reported.
      costs_args=(-prof io.rpcx.benchmarks.jmh.ProcessCpuProfiler -prof gc -f 1 -wi 3 -w 3s -i 3 -r 3s)
      jmh costs-32t 'ThroughputBenchmark.threads032' -p workload=echo16,order,orders,crud \
        -p system=rpcx,netty,grpc,grpc-native,dubbo,feign "${costs_args[@]}"
      jmh costs-1t 'ThroughputBenchmark.threads001' -p workload=string1m,bytes1m \
        -p system=rpcx,netty,grpc,grpc-native,dubbo,feign "${costs_args[@]}"
      ;;
    warmup)
      # Issue 18: the first seconds of a fresh JVM, echo16 at 32 threads, one-second iterations
      # and no warm-up iterations; first without pre-touching the heap (as most services run),
      # then with it. -jvmArgsAppend replaces RpcBenchmark's, which pre-touch.
      warm_args=(-p workload=echo16 -p system=rpcx -f 3 -wi 0 -i 40 -r 1s)
      jmh warmup-rpcx-no-pretouch 'ThroughputBenchmark.threads032' "${warm_args[@]}" \
        -jvmArgsAppend '-Xms4g -Xmx4g'
      jmh warmup-rpcx-pretouch 'ThroughputBenchmark.threads032' "${warm_args[@]}" \
        -jvmArgsAppend '-Xms4g -Xmx4g -XX:+AlwaysPreTouch'
      ;;
    virtual-threads)
      # Issue 18 item 5, on Java 21+: echo16 and one OrderInfo from 1,000 virtual-thread callers
      # (VirtualCallersBenchmark, JMH's virtual executor) against 32 platform threads
      # (ThroughputBenchmark.threads032), each against a server on its default worker pool (rpcx)
      # and on a virtual thread per call (rpcx-virtual). Every fork pre-touches a 4 GiB heap.
      vt_java="$(newest_java)"
      vt_args="${VT_ARGS:--f 3 -wi 3 -w 3s -i 5 -r 3s}"
      # shellcheck disable=SC2086 # vt_args is a list of JMH options
      "$vt_java" -jar "$jar" '(VirtualCallersBenchmark.virtual1000|ThroughputBenchmark.threads032)$' \
        -p workload=echo16,order -p system=rpcx,rpcx-virtual $vt_args \
        -rf json -rff "$out/jmh-virtual-threads.json" 2>&1 | tee "$out/jmh-virtual-threads.log" \
        | grep -E '^(# Benchmark:|# Parameters|Iteration|[A-Z][A-Za-z]*Benchmark\.)' || true
      ;;
    observability)
      # What observing calls costs: rpcx-micrometer on both sides with a Prometheus registry, its
      # meters and its observations, then Micrometer Tracing on the OpenTelemetry SDK, sampled and
      # unsampled (docs/OBSERVABILITY.md).
      jmh observability-echo16-32t 'ThroughputBenchmark.threads032' -p workload=echo16 \
        -p system=rpcx,rpcx-meters,rpcx-metrics,rpcx-metrics-generic,rpcx-tracing,rpcx-tracing-unsampled -f 3 -wi 3 -w 3s -i 5 -r 3s
      ;;
    streams)
      # Issue 19's server streams: messages/s of 16 B and 1 KiB strings on 1 stream and on 32 at
      # once (StreamBenchmark, 10,000 elements per stream), RPCX beside grpc-java in its four forms
      # (server: plain onNext loop or isReady/onReady; client: automatic or batched flow control)
      # and the raw Netty floor, 3 forks per cell, with -prof gc for the bytes per message (every
      # fork -Xms4g -Xmx4g -XX:+AlwaysPreTouch from StreamBenchmark's @Fork). Then what the long
      # streams amortise: streams of one element, one at a time, 1 fork.
      jmh streams 'StreamBenchmark.streams' \
        -p system=rpcx,grpc,grpc-ready,grpc-batch,grpc-ready-batch,netty -p payload=text16,text1k \
        $stream_args -prof gc
      jmh streams-setup 'StreamBenchmark.setup01' \
        -p system=rpcx,grpc,grpc-ready,grpc-batch,grpc-ready-batch,netty -p payload=text16,text1k \
        -f 1 -wi 3 -w 2s -i 3 -r 2s
      ;;
    grpc-endpoint)
      # Issue 28's speed comparison: the same grpc-java client (stubs generated from RPCX's export)
      # calling grpc-java's own server of that service (grpc-exported) and RPCX's gRPC endpoint
      # (grpc-on-rpcx), beside RPCX's own protocol (rpcx) and grpc-java on its hand-written schema
      # (grpc-native); echo16 and one OrderInfo at 1 and 32 caller threads. Each server runs in a
      # JVM of its own (-Xms2g -Xmx2g -XX:+AlwaysPreTouch; the client's fork keeps RpcBenchmark's
      # 4 GiB pre-touched heap, -jvmArgsPrepend adds to it), so the CPU time per call is the server
      # JVM's (ServerCpuProfiler) and the client JVM's (ProcessCpuProfiler) apart; both read the
      # kernel's counters once per iteration, so the calls/s of the same run are reported.
      # shellcheck disable=SC2086 # grpc_args is a list of JMH options
      jmh grpc-endpoint 'ThroughputBenchmark\.threads0(01|32)$' -p workload=echo16,order \
        -p system=grpc-exported,grpc-on-rpcx,rpcx,grpc-native \
        -jvmArgsPrepend -Drpcx.bench.server=own-jvm \
        -prof io.rpcx.benchmarks.jmh.ServerCpuProfiler -prof io.rpcx.benchmarks.jmh.ProcessCpuProfiler \
        $grpc_args
      ;;
    http-json)
      # Issue 31: what RPCX's HTTP/JSON side costs beside its own protocol, on the same server
      # (BenchServiceImpl, worker pool): http-json (the JDK's HttpClient over HTTP/1.1, keep-alive,
      # Jackson POJOs, POST /bench/<method> with a JSON array) and rpcx; echo16 and one OrderInfo at
      # 1 and 32 caller threads. Each server in a JVM of its own, as in grpc-endpoint, so the server
      # JVM's CPU per call (ServerCpuProfiler) is the JSON path's cost without the client's.
      # shellcheck disable=SC2086 # http_args is a list of JMH options
      jmh http-json 'ThroughputBenchmark\.threads0(01|32)$' -p workload=echo16,order \
        -p system=http-json,rpcx \
        -jvmArgsPrepend -Drpcx.bench.server=own-jvm \
        -prof io.rpcx.benchmarks.jmh.ServerCpuProfiler -prof io.rpcx.benchmarks.jmh.ProcessCpuProfiler \
        $http_args
      ;;
    matrix)
      # Every system x workload x thread count, throughput and latency, 1 fork each.
      jmh matrix-payloads '(Throughput|Latency)Benchmark' \
        -p workload=echo16,string1k,string100k,string1m,bytes1m \
        -p system=rpcx,netty,grpc,dubbo,feign $matrix_args
      jmh matrix-objects '(Throughput|Latency)Benchmark' -p workload=order,orders,crud \
        -p system=rpcx,grpc,dubbo,feign $matrix_args
      ;;
    codec)
      jmh codec 'CodecBenchmark'
      java -cp "$jar" io.rpcx.benchmarks.codec.CodecSizes > "$out/codec-sizes.md"
      ;;
    stress-quick)
      java -cp "$jar" io.rpcx.benchmarks.stress.StressTool --quick \
        --systems rpcx,grpc,feign,dubbo,netty --out "$out/stress-quick" 2>&1 \
        | tee "$out/stress-quick.log" | grep -vE '^\s*(at |[0-9:.]+ (INFO|WARN))' || true
      ;;
    stress-990)
      # The paper's grid for RPCX, extended to 990 threads: every cell must complete with 0 errors.
      java -cp "$jar" io.rpcx.benchmarks.stress.StressTool --systems rpcx \
        --threads 10,110,210,310,410,510,610,710,810,910,990 --requests 10:900:200 \
        --runs "${STRESS_RUNS:-10}" \
        --out "$out/stress-990" 2>&1 | tee "$out/stress-990.log" \
        | grep -vE '^\s*(at |[0-9:.]+ (INFO|WARN))' || true
      ;;
    *)
      echo "unknown phase $phase" >&2
      exit 2
      ;;
  esac
done

# The summary: the tables (the matrix first, the focused 3-fork runs last so that they win), then
# every JMH result, each file as a table.
shopt -s nullglob
# JMH JSON is kept gzipped (the latency histograms make it large); a fresh result replaces its .gz.
for json in "$out"/jmh-*.json; do
  gzip -f "$json"
done
files=("$out"/jmh-matrix-*.json.gz "$out"/jmh-codec*.json.gz "$out"/jmh-targets-*.json.gz
  "$out"/jmh-observability-*.json.gz "$out"/jmh-baselines-*.json.gz "$out"/jmh-costs-*.json.gz
  "$out"/jmh-last-mile-*.json.gz "$out"/jmh-warmup-*.json.gz)
newest=("$out"/jmh-newest-jdk-*.json.gz)
streams=("$out"/jmh-streams*.json.gz)
grpc_endpoint=("$out"/jmh-grpc-endpoint*.json.gz)
all=("$out"/jmh-*.json.gz)
{
  cat "$out/runs.md"
  if ((${#files[@]})); then
    echo "## Tables"
    java -cp "$jar" io.rpcx.benchmarks.report.JmhSummary "${files[@]}"
    echo
  fi
  if ((${#newest[@]})); then
    echo "## On the newest JDK ($(cat "$out/newest-jdk.txt" 2>/dev/null || echo "JDK 21+"))"
    java -cp "$jar" io.rpcx.benchmarks.report.JmhSummary "${newest[@]}"
    echo
  fi
  if ((${#streams[@]})); then
    echo "## Server streams"
    java -cp "$jar" io.rpcx.benchmarks.report.StreamSummary "${streams[@]}"
    echo
  fi
  if ((${#grpc_endpoint[@]})); then
    echo "## gRPC: one grpc-java client, grpc-java's server and RPCX's endpoint (issue 28)"
    echo
    java -cp "$jar" io.rpcx.benchmarks.report.GrpcEndpointSummary "${grpc_endpoint[@]}"
    echo
  fi
  if [[ -f "$out/codec-sizes.md" ]]; then
    printf '## Codec sizes\n\n'
    cat "$out/codec-sizes.md"
    echo
  fi
  for stress in "$out"/stress-*/summary.md; do
    # The stress tool's own summary, its headings one level down.
    sed 's/^#/##/' "$stress"
    echo
  done
  if ((${#all[@]})); then
    printf '## Every JMH result\n\n'
    java -cp "$jar" io.rpcx.benchmarks.report.JmhTable "${all[@]}"
  fi
} > "$out/summary.md"
echo "summary: $out/summary.md"
