#!/usr/bin/env python3
"""damage.py CACHE: damages the first four entries of CACHE (by path) in four
ways a lookup refuses: truncated, a payload changed under its checksum, a
format kopt does not know, and another key's entry under this key's name."""
import glob
import os
import sys

files = sorted(glob.glob(os.path.join(sys.argv[1], "entries", "*", "*.json")))
if len(files) < 5:
    sys.exit("damage.py: %s has fewer than 5 entries" % sys.argv[1])
with open(files[0], "r+") as f:
    f.truncate(80)
with open(files[1]) as f:
    text = f.read()
changed = text.replace('"kernel": "kernel', '"kernel": "Kernel', 1)
if changed == text:
    sys.exit("damage.py: no kernel name in " + files[1])
with open(files[1], "w") as f:
    f.write(changed)
with open(files[2], "w") as f:
    f.write('{"format": 9, "checksum": "sha256:00", "payload": {}}')
with open(files[4]) as f:
    other = f.read()
with open(files[3], "w") as f:
    f.write(other)
