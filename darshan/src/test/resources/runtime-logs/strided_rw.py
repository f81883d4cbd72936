"""The Python program behind python-strided-rw.darshan (see README.md beside it).

Plain unbuffered os-level file I/O, no MPI: one process plays the role of 4 "workers" of a checkpoint, each owning
every 4th 8 KiB block of a shared file (a strided shape), writes its blocks, then reads them back; then it reads a
separate input file in 3 contiguous segments, each with 4 KiB requests. Run with Darshan preloaded:
    python3 strided_rw.py DIR
"""
import os
import sys

BLOCK = 8 * 1024
WORKERS = 4
ROUNDS = 16


def strided_checkpoint(path):
    with open(path, "w+b", buffering=0) as f:
        for w in range(WORKERS):
            payload = bytes([w]) * BLOCK
            for r in range(ROUNDS):
                f.seek((r * WORKERS + w) * BLOCK)
                f.write(payload)
        for w in range(WORKERS):
            for r in range(ROUNDS):
                f.seek((r * WORKERS + w) * BLOCK)
                if f.read(BLOCK) != bytes([w]) * BLOCK:
                    sys.exit("verification failed at worker %d round %d" % (w, r))


def segmented_input(path):
    segment, request = 64 * 1024, 4 * 1024
    with open(path, "wb", buffering=0) as f:
        f.write(os.urandom(3 * 2 * segment))
    with open(path, "rb", buffering=0) as f:
        for s in range(3):
            f.seek(s * 2 * segment)
            for _ in range(segment // request):
                f.read(request)


if __name__ == "__main__":
    out = sys.argv[1]
    strided_checkpoint(os.path.join(out, "checkpoint.dat"))
    segmented_input(os.path.join(out, "input.dat"))
