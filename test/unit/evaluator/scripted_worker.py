#!/usr/bin/env python3
"""An evaluation worker that answers from a script, for the Evaluator's tests
without a GPU: started as `scripted_worker.py --kopt-evaluation-worker IN OUT DEVICE`
(WorkerMain.h), it reads each framed request (8-byte length in host order,
then JSON; MessageFraming.h) from IN and writes the next answer of the JSON
list in $KOPT_SCRIPTED_ANSWERS to OUT. Each request is appended to
$KOPT_SCRIPTED_REQUESTS (one JSON line each) where that is set."""
import json
import os
import struct
import sys


def read_exactly(fd, size):
    data = b""
    while len(data) < size:
        chunk = os.read(fd, size - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def main():
    fd_in, fd_out = int(sys.argv[2]), int(sys.argv[3])
    answers = json.loads(os.environ["KOPT_SCRIPTED_ANSWERS"])
    log = os.environ.get("KOPT_SCRIPTED_REQUESTS")
    for answer in answers:
        head = read_exactly(fd_in, 8)
        if head is None:
            return 0
        (size,) = struct.unpack("=Q", head)
        request = read_exactly(fd_in, size)
        if log:
            with open(log, "a") as out:
                out.write(json.dumps({"argv": sys.argv[1:], "request": json.loads(request)}) + "\n")
        body = json.dumps(answer).encode()
        os.write(fd_out, struct.pack("=Q", len(body)) + body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
