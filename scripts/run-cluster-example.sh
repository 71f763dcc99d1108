#!/usr/bin/env bash
# Builds RPCX, starts a local ZooKeeper (Apache ZooKeeper from its Maven Central jar), two example
# servers that register there, and the example client, which finds both through ZooKeeper and
# spreads its calls over them. Stops everything at the end; exits with the client's status.
#   --no-build: use the jars already in target/
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${1:-}" != "--no-build" ]]; then
  mvn -B -q -ntp -DskipTests package
fi
jar_server=rpcx-examples/target/rpcx-example-server.jar
jar_client=rpcx-examples/target/rpcx-example-client.jar
work="$(mktemp -d)"
pids=()
cleanup() {
  # servers first (they withdraw from ZooKeeper), ZooKeeper last
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    kill "${pids[i]}" 2>/dev/null || true
    wait "${pids[i]}" 2>/dev/null || true
  done
  rm -rf "$work"
}
trap cleanup EXIT

# start <name> <ready pattern> <command...>: runs a process, waits for its ready line
start() {
  local name="$1" pattern="$2"
  shift 2
  "$@" > "$work/$name.log" 2>&1 &
  pids+=("$!")
  for _ in $(seq 1 300); do
    if grep -q "$pattern" "$work/$name.log"; then return 0; fi
    if ! kill -0 "${pids[-1]}" 2>/dev/null; then cat "$work/$name.log"; echo "$name did not start" >&2; exit 1; fi
    sleep 0.1
  done
  cat "$work/$name.log"; echo "$name did not start in 30 s" >&2; exit 1
}

start zookeeper "ZooKeeper ready on" java -cp "$jar_server" io.rpcx.examples.zookeeper.LocalZooKeeper --port 0
zookeeper="$(sed -n 's/.*ZooKeeper ready on \([0-9.:]*\).*/\1/p' "$work/zookeeper.log" | head -n 1)"
echo "ZooKeeper: $zookeeper"
for server in server-1 server-2; do
  start "$server" "ready on port" java -jar "$jar_server" --port 0 --zookeeper "$zookeeper" --advertise 127.0.0.1
  grep "ready on port" "$work/$server.log"
done
java -jar "$jar_client" --zookeeper "$zookeeper" --expect-servers 2
