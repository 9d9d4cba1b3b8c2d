"""Signals a command at a chosen moment: kill-at.py SIGNAL NAME -- COMMAND...

Starts COMMAND, waits until one of its descendants is named NAME (as
/proc/PID/comm says), sends SIGNAL to COMMAND's process alone, as `kill` would,
and waits for it. Prints "status N" (128 + the signal's number for a process the
signal ended) and "descendants left N": how many of the processes COMMAND had
started still run 10 s later (a child that outlives its parent may still write
the parent's output).
"""
import os
import signal
import subprocess
import sys
import time


def children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


def descendants(pid):
    found, todo = [], [pid]
    while todo:
        for child in children(todo.pop()):
            found.append(child)
            todo.append(child)
    return found


def name(pid):
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return ""


def running(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def main():
    sig = getattr(signal, "SIG" + sys.argv[1])
    wanted = sys.argv[2]
    command = sys.argv[sys.argv.index("--") + 1:]
    proc = subprocess.Popen(command)
    seen = set()
    deadline = time.time() + 280
    while time.time() < deadline and proc.poll() is None:
        now = descendants(proc.pid)
        seen.update(now)
        if any(name(p) == wanted for p in now):
            break
        time.sleep(0.01)
    else:
        sys.exit(f"kill-at.py: no process named {wanted} under {command[0]}")
    os.kill(proc.pid, sig)
    status = proc.wait()
    print("status", 128 - status if status < 0 else status)
    deadline = time.time() + 10
    while time.time() < deadline and any(running(p) for p in seen):
        time.sleep(0.1)
    print("descendants left", sum(running(p) for p in seen))


main()
