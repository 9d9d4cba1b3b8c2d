#!/usr/bin/env python3
"""peak_rss.py TIME_FILE LIMIT_MB: fails unless the "Maximum resident set size"
that GNU time -v wrote in TIME_FILE is below LIMIT_MB (and prints it)."""
import re
import sys

with open(sys.argv[1]) as f:
    text = f.read()
found = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)
if not found:
    sys.exit("peak_rss.py: no 'Maximum resident set size' in " + sys.argv[1])
peak_mb = int(found.group(1)) / 1024
limit_mb = float(sys.argv[2])
print("peak %.0f MB (limit %.0f MB)" % (peak_mb, limit_mb))
if peak_mb >= limit_mb:
    sys.exit("peak_rss.py: peak %.0f MB is not below %.0f MB" % (peak_mb, limit_mb))
