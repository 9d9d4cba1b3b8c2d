"""Runs a command whose stderr (and stdout) is a pipe nobody reads any more,
as under `... 2>&1 | head -1` once head has gone: closed-stderr.py COMMAND...
Prints "status N" (128 + the signal's number for a process a signal ended)."""
import os
import subprocess
import sys

read_end, write_end = os.pipe()
os.close(read_end)
status = subprocess.call(sys.argv[1:], stdout=write_end, stderr=write_end)
print("status", 128 - status if status < 0 else status)
