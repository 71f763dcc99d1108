#!/usr/bin/env python3
"""What each thread of a JMH fork spends per call, iteration by iteration (rates.sh runs it).

  rates.py sample FILE         every 0.5 s, until killed: the CPU time (user and system), the
                               voluntary and involuntary context switches of every thread of the
                               running JMH fork (with its thread group), and the machine's
                               user/system/idle time from /proc/stat; one JSON object per line
  rates.py report JMH_LOG FILE one row per iteration of the log (its lines stamped with the epoch
                               seconds by rates.sh): calls/s, the machine's user and system CPU per
                               call (µs) and idle share, each thread group's CPU per call (µs) and
                               the voluntary context switches per call

Reads only /proc, once per half second: the benchmark runs as it would without it. Linux only.
"""
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
    ('client-io', 'netty-echo-clie'),
    ('server-io', 'netty-echo-work'),
    ('jit', 'C2 CompilerThre'),
    ('jit', 'C1 CompilerThre'),
    ('gc', 'GC Thread'),
    ('gc', 'G1 '),
]


def group_of(name):
    for group, prefix in GROUPS:
        if name.startswith(prefix):
            return group
    return 'other'


def fork_pid():
    for entry in os.listdir('/proc'):
        if entry.isdigit():
            try:
                with open(f'/proc/{entry}/cmdline', 'rb') as f:
                    if b'org.openjdk.jmh.runner.ForkedMain' in f.read():
                        return int(entry)
            except OSError:
                pass
    return None


def read(path):
    with open(path) as f:
        return f.read()


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


def sample(path):
    with open(path, 'w') as out:
        while True:
            pid = fork_pid()
            if pid is None:
                time.sleep(0.05)
                continue
            while os.path.exists(f'/proc/{pid}'):
                try:
                    row = {'t': time.time(), 'pid': pid, 'machine': machine(), 'threads': threads(pid)}
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
        setting = re.match(r'# (Warmup|Measurement): \d+ iterations, ([\d.]+) s each', text)
        if setting:
            durations[setting.group(1)] = float(setting.group(2))
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
    samples = [json.loads(line) for line in open(path) if line.strip()]
    columns = ['callers', 'client-io', 'server-io', 'workers', 'jit', 'gc', 'other']
    print('fork iter  calls/s  user µs  sys µs  idle | CPU µs per call: '
          + ' '.join(f'{c:>9s}' for c in columns) + ' | vcs/call')
    for fork, label, start, end, calls in iterations(log):
        inside = [s for s in samples if start - 0.05 <= s['t'] <= end + 0.05]
        if len(inside) < 2 or inside[0]['pid'] != inside[-1]['pid']:
            continue
        first, last = inside[0], inside[-1]
        seconds = last['t'] - first['t']
        n = calls * seconds
        user, system, idle = (b - a for a, b in zip(first['machine'], last['machine']))
        cpus = os.cpu_count() or 1
        row = f'{fork:4d} {label:>4s} {calls:8.0f} {1e6 * user / n:8.2f} {1e6 * system / n:7.2f} {100 * idle / (seconds * cpus):4.0f}% |'
        row += ' ' * 18
        # Threads alive at both ends (one that ended in between is left out, not counted negative).
        cpu, vcs = {}, 0
        for tid, (group, u1, s1, v1, _) in last['threads'].items():
            if tid in first['threads']:
                _, u0, s0, v0, _ = first['threads'][tid]
                cpu[group] = cpu.get(group, 0) + (u1 - u0) + (s1 - s0)
                vcs += v1 - v0
        for column in columns:
            row += f' {1e6 * cpu.get(column, 0) / n:9.2f}'
        print(row + f' | {vcs / n:5.2f}')
    print('* a fork\'s last iteration: its window includes the trial\'s teardown')


if __name__ == '__main__':
    if len(sys.argv) == 3 and sys.argv[1] == 'sample':
        sample(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == 'report':
        report(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
