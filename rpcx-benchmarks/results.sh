# Sourced by the scripts of rpcx-benchmarks (not run on its own): where a run writes, the command
# that made it, and the head of its summary.
#
# Raw output (JMH JSON and logs, profiles, flame graphs, charts) goes to rpcx-benchmarks/results/,
# which git ignores; each run also writes summary.md there, beginning with results_head: the file
# (with small CSVs) that is copied to docs/benchmarks/<run>/ when a run is published.

# results_dir NAME: a folder for a run, rpcx-benchmarks/results/<UTC date>-NAME-<commit>, the
# commit marked -dirty when tracked files differ from it. Relative to the repository root.
results_dir() {
  local commit
  commit="$(git rev-parse --short HEAD 2>/dev/null || echo no-git)"
  if ! git diff --quiet HEAD -- 2>/dev/null; then
    commit+="-dirty"
  fi
  echo "rpcx-benchmarks/results/$(date -u +%Y-%m-%d)-$1-$commit"
}

# shell_word WORD: WORD as a shell reads it back (plain, or in single quotes).
shell_word() {
  if [[ "$1" =~ ^[A-Za-z0-9_./:=,+@%-]+$ ]]; then
    printf '%s' "$1"
  else
    printf "'%s'" "${1//\'/\'\\\'\'}"
  fi
}

# command_line "SETTING..." SCRIPT ARG...: the invocation as one line, from the repository root:
# the environment settings among SETTING that are set, then bash SCRIPT and its arguments.
command_line() {
  local settings="$1" script="$2" name line=""
  shift 2
  for name in $settings; do
    if [[ -n "${!name+set}" ]]; then
      line+="$name=$(shell_word "${!name}") "
    fi
  done
  line+="bash $script"
  for arg in "$@"; do
    line+=" $(shell_word "$arg")"
  done
  printf '%s\n' "$line"
}

# results_head TITLE COMMAND [JAVA]: the head of a summary in Markdown: the title, the command and
# the commit it ran at, and the machine (cores first; JAVA, default java, is the JDK described).
results_head() {
  local title="$1" command="$2" java="${3:-java}"
  local commit
  commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  if ! git diff --quiet HEAD -- 2>/dev/null; then
    commit+=" (with uncommitted changes)"
  fi
  cat <<HEAD
# $title

From the repository root, at commit $commit:

\`\`\`sh
$command
\`\`\`

| machine | |
|---|---|
| cores | $(nproc) |
| memory | $(free -g | awk '/^Mem:/ {print $2}') GiB |
| cpu | $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //') |
| kernel | $(uname -r) |
| java | $("$java" -version 2>&1 | sed -n 2p) |
| date | $(date -u +%Y-%m-%dT%H:%MZ) |
| load average at the start (1, 5, 15 min) | $(cut -d' ' -f1-3 /proc/loadavg) |

HEAD
}
