#!/usr/bin/env bash
# The example client finding its servers in DNS while they are scaled up and down under its
# calls: a local DNS server (dnsmasq, the Debian package) on 127.0.0.1 publishes one A record per
# example server (servers on 127.0.0.2-5, one port, as pods behind a headless Service); the
# client (--dns, DnsDiscovery) calls echo from 4 threads and prints every second how the calls
# spread. The script lists 2 servers, then 4, then 2 again (the 2 leaving drop out of DNS first,
# then stop gracefully), and exits with the client's status: 0 if no call failed.
#   --no-build: use the jars already in target/
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${1:-}" != "--no-build" ]]; then
  mvn -B -q -ntp -DskipTests package
fi
dnsmasq=/usr/sbin/dnsmasq
if [[ ! -x "$dnsmasq" ]]; then
  echo "needs the DNS server dnsmasq: apt-get install dnsmasq" >&2
  exit 1
fi
jar_server=rpcx-examples/target/rpcx-example-server.jar
jar_client=rpcx-examples/target/rpcx-example-client.jar
work="$(mktemp -d)"
declare -A servers=()
dns_pid=""
client_pid=""
cleanup() {
  [[ -n "$client_pid" ]] && kill "$client_pid" 2>/dev/null || true
  for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${servers[@]}"; do wait "$pid" 2>/dev/null || true; done
  [[ -n "$dns_pid" ]] && kill "$dns_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# A free UDP port for the DNS server.
dns_port="$(/usr/bin/python3 -c 'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
: > "$work/hosts"
"$dnsmasq" --keep-in-foreground --port="$dns_port" --listen-address=127.0.0.1 --bind-interfaces \
  --no-resolv --no-hosts --local=/test/ --addn-hosts="$work/hosts" --local-ttl=1 \
  --conf-file=/dev/null --pid-file= --user="$(id -un)" --log-facility="$work/dnsmasq.log" \
  > "$work/dnsmasq.out" 2>&1 &
dns_pid=$!
echo "DNS server (dnsmasq) on 127.0.0.1:$dns_port, TTL 1 s, name rpcx-example.test"

# records <n>...: serves 127.0.0.<n> for each n as the A records of rpcx-example.test
records() {
  : > "$work/hosts.new"
  for n in "$@"; do echo "127.0.0.$n rpcx-example.test" >> "$work/hosts.new"; done
  mv "$work/hosts.new" "$work/hosts"
  kill -HUP "$dns_pid"
  echo "--- DNS now lists: $(sed 's/ rpcx-example.test//' "$work/hosts" | tr '\n' ' ')"
}

# start_server <n> <port>: an example server on 127.0.0.<n>
start_server() {
  local n="$1" port="$2" log="$work/server-$1.log"
  java -jar "$jar_server" --bind "127.0.0.$n" --port "$port" > "$log" 2>&1 &
  servers[$n]=$!
  for _ in $(seq 1 300); do
    if grep -q "ready on port" "$log"; then return 0; fi
    if ! kill -0 "${servers[$n]}" 2>/dev/null; then cat "$log"; echo "server $n did not start" >&2; exit 1; fi
    sleep 0.1
  done
  cat "$log"; echo "server $n did not start in 30 s" >&2; exit 1
}

# Every server starts first, listed or not, so that the steps below take no time of their own.
start_server 2 0
port="$(sed -n 's/.*ready on port \([0-9]*\).*/\1/p' "$work/server-2.log" | head -n 1)"
for n in 3 4 5; do start_server "$n" "$port"; done
echo "servers 127.0.0.2-5 on port $port"
records 2 3

java -jar "$jar_client" --dns "dns://127.0.0.1:$dns_port/rpcx-example.test:$port" --run-for 18 &
client_pid=$!
sleep 6
records 2 3 4 5
sleep 5
records 4 5
sleep 2
for n in 2 3; do kill "${servers[$n]}"; wait "${servers[$n]}" 2>/dev/null || true; unset "servers[$n]"; done
echo "--- servers 127.0.0.2 and 127.0.0.3 stopped"
status=0
wait "$client_pid" || status=$?
client_pid=""
exit "$status"
