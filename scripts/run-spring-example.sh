#!/usr/bin/env bash
# Builds RPCX, starts the Spring Boot example server, runs the Spring Boot example client against
# it, and stops the server gracefully. Exits with the client's status: 0 when every call worked.
#   PORT=9000 (default; 0 picks a free one)   --no-build: use the jars already built
set -euo pipefail
cd "$(dirname "$0")/.."
port="${PORT:-9000}"
if [[ "${1:-}" != "--no-build" ]]; then
  mvn -B -q -ntp -DskipTests package -pl rpcx-examples-spring-boot/server,rpcx-examples-spring-boot/client -am
fi
jars=rpcx-examples-spring-boot
log="$(mktemp)"
java -jar "$jars/server/target/rpcx-spring-example-server.jar" --rpcx.server.port="$port" > "$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 1 300); do
  if grep -q "ready on port" "$log"; then break; fi
  if ! kill -0 "$server" 2>/dev/null; then cat "$log"; echo "the Spring example server did not start" >&2; exit 1; fi
  sleep 0.1
done
if ! grep -q "ready on port" "$log"; then cat "$log"; echo "the Spring example server did not start in 30 s" >&2; exit 1; fi
actual="$(sed -n 's/.*ready on port \([0-9]*\).*/\1/p' "$log" | head -n 1)"
status=0
java -jar "$jars/client/target/rpcx-spring-example-client.jar" --rpcx.client.target="127.0.0.1:$actual" || status=$?
# A graceful stop: SIGTERM runs Spring's shutdown, which drains the RPCX server and ends the JVM.
if ! kill -TERM "$server" 2>/dev/null; then
  echo "the Spring example server had ended before it was stopped" >&2
  status=1
fi
for _ in $(seq 1 300); do
  kill -0 "$server" 2>/dev/null || break
  sleep 0.1
done
if kill -0 "$server" 2>/dev/null; then
  echo "the Spring example server did not stop within 30 s of SIGTERM" >&2
  status=1
fi
echo "--- the Spring example server's log:"
cat "$log"
if ! grep -q "RPCX server on .* stopped" "$log"; then
  echo "the Spring example server's log does not show the RPCX server stopping" >&2
  status=1
fi
exit "$status"
