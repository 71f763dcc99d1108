#!/usr/bin/env python3
"""What each thread of a JMH fork spends per call, iteration by iteration (rates.sh runs it).

  rates.py sample FILE PID     every 0.5 s, until killed: the CPU time (user and system), the
                               voluntary and involuntary context switches of every thread of the
                               JMH fork running under process PID (rates.sh passes its own), with
                               its thread group, and the machine's user/system/idle time from
                               /proc/stat; one JSON object per line
  rates.py report JMH_LOG FILE one row per iteration of the log (its lines stamped with the epoch
                               seconds by rates.sh): calls/s, the machine's user and system CPU per
                               call (µs) and idle share, each thread group's CPU per call (µs),
                               and the voluntary context switches per call of the callers and of
                               the event loops and workers together
  rates.py tiers JMH_LOG DIR   one row per iteration of the log: calls/s and the share of
                               async-profiler's samples (collapsed stacks annotated with `ann`, one
                               file per slice named <pid>-<yyyymmdd>-<hhmmss>.collapsed in the
                               machine's local time, as `loop=2s,file=DIR/%p-%t.collapsed` writes
                               them) with an interpreted (_[0]) or C1-compiled (_[1]) frame

Reads only /proc, twice a second (a few ms of one core each time). Linux only.
"""
import datetime
import json
import os
import re
import sys
import time

TICK = os.sysconf('SC_CLK_TCK')
GROUPS = [  # (group, thread-name prefix); the first match wins
    ('callers', 'io.rpcx.benchma'),
    ('client-io', 'rpcx-client-io'),
    ('server-io', 'rpcx-server-io'),
    ('workers', 'rpcx-server-wor'),
    ('workers', 'ForkJoinPool-'),  # the carriers of virtual threads (the server's, from Java 24)
    ('client-io', 'netty-echo-clie'),
    ('server-io', 'netty-echo-work'),
    ('jit', 'C2 CompilerThre'),
    ('jit', 'C1 CompilerThre'),
    ('gc', 'GC Thread'),
    ('gc', 'G1 '),
    ('gc', 'ZWorker'),
    ('gc', 'Shenandoah'),
]


def group_of(name):
    for group, prefix in GROUPS:
        if name.startswith(prefix):
            return group
    return 'other'


def read(path):
    with open(path) as f:
        return f.read()


def descends_from(pid, ancestor):
    while pid > 0:
        if pid == ancestor:
            return True
        pid = int(read(f'/proc/{pid}/stat').rsplit(')', 1)[1].split()[1])
    return False


def fork_pid(ancestor):
    """The JMH fork running under process ancestor, not another benchmark's."""
    for entry in os.listdir('/proc'):
        if entry.isdigit():
            try:
                with open(f'/proc/{entry}/cmdline', 'rb') as f:
                    forked = b'org.openjdk.jmh.runner.ForkedMain' in f.read()
                if forked and descends_from(int(entry), ancestor):
                    return int(entry)
            except (OSError, ValueError, IndexError):
                pass
    return None


def threads(pid):
    """Per thread id: [group, user s, system s, voluntary switches, involuntary switches]."""
    found = {}
    for tid in os.listdir(f'/proc/{pid}/task'):
        base = f'/proc/{pid}/task/{tid}'
        try:
            name = read(base + '/comm').strip()
            fields = read(base + '/stat').rsplit(')', 1)[1].split()
            status = read(base + '/status')
        except OSError:
            continue  # the thread ended
        voluntary = int(re.search(r'^voluntary_ctxt_switches:\s+(\d+)', status, re.M).group(1))
        involuntary = int(re.search(r'nonvoluntary_ctxt_switches:\s+(\d+)', status).group(1))
        found[tid] = [group_of(name), int(fields[11]) / TICK, int(fields[12]) / TICK,
                      voluntary, involuntary]
    return found


def machine():
    """The machine's user, system (with interrupts) and idle seconds, over all CPUs."""
    fields = [int(x) for x in read('/proc/stat').split('\n', 1)[0].split()[1:9]]
    user, nice, system, idle, iowait, irq, softirq, steal = fields
    return [(user + nice) / TICK, (system + irq + softirq) / TICK, (idle + iowait) / TICK]


def sample(path, ancestor):
    with open(path, 'w') as out:
        while True:
            pid = fork_pid(ancestor)
            if pid is None:
                time.sleep(0.05)
                continue
            while os.path.exists(f'/proc/{pid}'):
                try:
                    row = {'t': time.time(), 'pid': pid, 'cpus': os.cpu_count(),
                           'machine': machine(), 'threads': threads(pid)}
                except (OSError, AttributeError):
                    break
                out.write(json.dumps(row) + '\n')
                out.flush()
                time.sleep(0.5)


def iterations(log):
    """(fork, label, start, end, calls/s) of every iteration in a stamped JMH log."""
    fork, durations, found = 0, {'Warmup': 0.0, 'Measurement': 0.0}, []
    for line in open(log):
        stamp, _, text = line.rstrip('\n').partition(' ')
        setting = re.match(r'# (Warmup|Measurement): \d+ iterations, ([\d.]+) (s|ms) each', text)
        if re.match(r'# (Warmup|Measurement): \d+ iterations', text) and not setting:
            sys.exit(f'rates.py: iterations timed in a unit other than s or ms: {text}')
        if setting:
            scale = 0.001 if setting.group(3) == 'ms' else 1.0
            durations[setting.group(1)] = float(setting.group(2)) * scale
        if re.match(r'# Fork: \d+ of \d+', text):
            fork += 1
        result = re.match(r'(# Warmup )?Iteration\s+(\d+): ([\d.]+) ops/s', text)
        if result:
            warmup = result.group(1) is not None
            length = durations['Warmup' if warmup else 'Measurement']
            end = float(stamp)
            label = ('w' if warmup else '') + result.group(2)
            found.append((fork, label, end - length, end, float(result.group(3))))
    # JMH prints a fork's last iteration after the trial's teardown: its window holds the
    # shutdown too, so mark it rather than mix the two.
    return [(f, l + ('*' if i + 1 == len(found) or found[i + 1][0] != f else ''), a, b, c)
            for i, (f, l, a, b, c) in enumerate(found)]


def report(log, path):
    samples = []
    with open(path) as lines:
        for line in lines:
            try:
                samples.append(json.loads(line))
            except ValueError:
                pass  # the line being written when the sampler was stopped
    found = iterations(log)
    if not found:
        sys.exit(f'rates.py: no iteration in ops/s in {log} (rates.py reads throughput in ops/s)')
    columns = ['callers', 'client-io', 'server-io', 'workers', 'jit', 'gc', 'other']
    print('fork iter  calls/s  user µs  sys µs  idle | CPU µs per call: '
          + ' '.join(f'{c:>9s}' for c in columns) + ' | vcs/call: callers loops+workers')
    rows = 0
    for fork, label, start, end, calls in found:
        inside = [s for s in samples if start - 0.05 <= s['t'] <= end + 0.05]
        if len(inside) < 2 or inside[0]['pid'] != inside[-1]['pid']:
            continue
        first, last = inside[0], inside[-1]
        seconds = last['t'] - first['t']
        n = calls * seconds
        if n <= 0:
            continue
        user, system, idle = (b - a for a, b in zip(first['machine'], last['machine']))
        cpus = last.get('cpus') or os.cpu_count() or 1
        row = f'{fork:4d} {label:>4s} {calls:8.0f} {1e6 * user / n:8.2f} {1e6 * system / n:7.2f} {100 * idle / (seconds * cpus):4.0f}% |'
        row += ' ' * 18
        # Threads alive at both ends (one that ended in between is left out, not counted negative).
        cpu, callers, serving = {}, 0, 0
        for tid, (group, u1, s1, v1, _) in last['threads'].items():
            if tid in first['threads']:
                _, u0, s0, v0, _ = first['threads'][tid]
                cpu[group] = cpu.get(group, 0) + (u1 - u0) + (s1 - s0)
                if group == 'callers':
                    callers += v1 - v0
                elif group in ('client-io', 'server-io', 'workers'):
                    serving += v1 - v0
        for column in columns:
            row += f' {1e6 * cpu.get(column, 0) / n:9.2f}'
        print(row + f' |          {callers / n:5.2f}         {serving / n:5.2f}')
        rows += 1
    print('* a fork\'s last iteration: its window includes the trial\'s teardown')
    if rows == 0:
        sys.exit(f'rates.py: no iteration of {log} has samples of its fork in {path}')


def tiers(log, directory):
    slices = []  # (start, samples, samples with an interpreted or C1 frame)
    for name in sorted(os.listdir(directory)):
        match = re.fullmatch(r'\d+-(\d{8})-(\d{6})\.collapsed', name)
        if not match:
            continue
        at = datetime.datetime.strptime(match.group(1) + match.group(2), '%Y%m%d%H%M%S').timestamp()
        total = low = 0
        with open(os.path.join(directory, name)) as stacks:
            for line in stacks:
                stack, count = line.rstrip().rsplit(' ', 1)
                total += int(count)
                low += int(count) if '_[0]' in stack or '_[1]' in stack else 0
        slices.append((at, total, low))
    if not slices:
        sys.exit(f'rates.py: no <pid>-<yyyymmdd>-<hhmmss>.collapsed file in {directory}')
    print('fork iter  calls/s  slices  interpreted or C1')
    for fork, label, start, end, calls in iterations(log):
        inside = [s for s in slices if start - 0.5 <= s[0] <= end + 0.5]
        total, low = sum(s[1] for s in inside), sum(s[2] for s in inside)
        print(f'{fork:4d} {label:>4s} {calls:8.0f} {len(inside):7d} {100 * low / max(total, 1):17.1f}%')


if __name__ == '__main__':
    if len(sys.argv) == 4 and sys.argv[1] == 'sample':
        sample(sys.argv[2], int(sys.argv[3]))
    elif len(sys.argv) == 4 and sys.argv[1] == 'report':
        report(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 4 and sys.argv[1] == 'tiers':
        tiers(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
