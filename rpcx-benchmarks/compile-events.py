#!/usr/bin/env python3
"""The JIT's deoptimizations in a HotSpot compilation log, in order, for RPCX's and Netty's methods.

    java -jar rpcx-benchmarks/target/benchmarks.jar <cell> \
      -jvmArgsPrepend '-XX:+UnlockDiagnosticVMOptions -XX:+LogCompilation -XX:LogFile=/tmp/comp-%p.log'
    python3 rpcx-benchmarks/compile-events.py /tmp/comp-<pid>.log [--after SECONDS]

Prints each uncommon trap (reason/action, bytecode index, method) and each compiled method made
not entrant (compile id, compiler, tier, method), by uptime in seconds: to set beside a fork's
iterations when its rate changes (docs/BENCHMARKS.md, "Two rates").
"""
import re, sys

TRAP = re.compile(r"<uncommon_trap thread='\d+' reason='([^']+)' action='([^']+)'[^>]*?"
                  r"compile_id='(\d+)'[^>]*?stamp='([\d.]+)'[^>]*>\s*<jvms bci='(\d+)' method='([^']+)'")
NOT_ENTRANT = re.compile(r"<make_not_entrant thread='\d+' compile_id='(\d+)'( compile_kind='osr')? "
                         r"compiler='(\w+)'( level='(\d)')? stamp='([\d.]+)'")
QUEUED = re.compile(r"<task_queued compile_id='(\d+)'( compile_kind='osr')? method='([^']+)'")

args = sys.argv[1:]
after = 0.0
if '--after' in args:
    i = args.index('--after')
    after = float(args[i + 1])
    del args[i:i + 2]
for path in args:
    text = open(path, errors='replace').read()
    methods = {m.group(1): m.group(3).split(' (')[0] for m in QUEUED.finditer(text)}
    events = []
    for m in TRAP.finditer(text):
        reason, action, _, stamp, bci, method = m.groups()
        events.append((float(stamp), f"trap {reason}/{action} bci={bci} {method.split(' (')[0]}"))
    for m in NOT_ENTRANT.finditer(text):
        cid, _, compiler, _, level, stamp = m.groups()
        events.append((float(stamp), f"not entrant {compiler} tier {level} {methods.get(cid, '?')}"))
    print(path)
    for stamp, event in sorted(events):
        if stamp >= after and ('io.rpcx' in event or 'io.netty' in event) and 'benchmarks' not in event:
            print(f'{stamp:8.2f}  {event}')
