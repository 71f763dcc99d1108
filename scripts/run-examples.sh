#!/usr/bin/env bash
# Builds RPCX, starts the example server, runs the example client against it, and stops the server.
# Exits with the client's status: 0 when every example call succeeded.
#   PORT=9000 (default; 0 picks a free port)   --no-build: use the jars already in target/
set -euo pipefail
cd "$(dirname "$0")/.."
port="${PORT:-9000}"
if [[ "${1:-}" != "--no-build" ]]; then
  mvn -B -q -ntp -DskipTests package
fi
log="$(mktemp)"
java -jar rpcx-examples/target/rpcx-example-server.jar --port "$port" > "$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 1 200); do
  if grep -q "ready on port" "$log"; then break; fi
  if ! kill -0 "$server" 2>/dev/null; then cat "$log"; echo "the example server did not start" >&2; exit 1; fi
  sleep 0.1
done
cat "$log"
actual="$(sed -n 's/.*ready on port \([0-9]*\).*/\1/p' "$log" | head -n 1)"
java -jar rpcx-examples/target/rpcx-example-client.jar --host 127.0.0.1 --port "$actual"
