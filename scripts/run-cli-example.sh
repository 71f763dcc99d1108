#!/usr/bin/env bash
# Builds the rpcx command line and the example server, starts the server on a free port, and runs
# the runnable jar rpcx-cli/target/rpcx.jar against it: list, describe, proto, call, a 2-second bench.
# Exits non-zero as soon as one command fails.   --no-build: use the jars already in target/
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${1:-}" != "--no-build" ]]; then
  mvn -B -q -ntp -DskipTests package -pl rpcx-cli,rpcx-examples -am
fi
log="$(mktemp)"
report="$(mktemp --suffix=.html)"
protos="$(mktemp -d)"
java -jar rpcx-examples/target/rpcx-example-server.jar --port 0 > "$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$log" "$report" "$protos"' EXIT
for _ in $(seq 1 200); do
  if grep -q "ready on port" "$log"; then break; fi
  if ! kill -0 "$server" 2>/dev/null; then cat "$log"; echo "the example server did not start" >&2; exit 1; fi
  sleep 0.1
done
address="127.0.0.1:$(sed -n 's/.*ready on port \([0-9]*\).*/\1/p' "$log" | head -n 1)"
rpcx() { echo "+ rpcx $*" >&2; java -jar rpcx-cli/target/rpcx.jar "$@"; }
rpcx list "$address"
rpcx describe "$address" orders
rpcx proto "$address" orders --out "$protos"
test -s "$protos/orders.proto" && test -s "$protos/rpcx/v1/rpcx.proto"
rpcx call "$address" echo/echo '["hi"]'
rpcx call "$address" orders/findOrder '[42]'
rpcx call "$address" messages/create '["hello from rpcx"]'
rpcx bench "$address" echo/echo '["hi"]' -c 8 -z 2s --html "$report"
grep -q 'id="rpcx-bench"' "$report"
