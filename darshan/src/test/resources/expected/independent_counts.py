#!/usr/bin/env python3
"""Independent count of records and DXT segments in Darshan logs, written from the format definition
(the log format as darshan-util's *-log-format.h and darshan-logutils.c define it), sharing no code with the Java reader.
Usage: python3 independent_counts.py LOG... > counts.tsv
Output columns: log, module (3.41 numbering name), records, dxt_segments (DXT only, else 0), first record rank."""
import struct, sys, zlib, bz2, os

NAMES_341 = ["NULL","POSIX","MPI-IO","H5F","H5D","PNETCDF_FILE","PNETCDF_VAR","BG/Q","LUSTRE","STDIO",
             "DXT_POSIX","DXT_MPIIO","MDHIM","APXC","APMPI","HEATMAP","DFS","DAOS"]
# fixed record sizes in bytes by (module, version)
FIXED = {("POSIX",4):704,("POSIX",3):664,("POSIX",2):648,("POSIX",1):680,("MPI-IO",3):560,("MPI-IO",2):544,
         ("MPI-IO",1):544,("STDIO",2):248,("STDIO",1):240,("H5F",3):80,("H5D",2):(3+94+17)*8,("H5D",1):(2+94+17)*8,("BG/Q",2):(2+11+1)*8,
         ("PNETCDF_FILE",3):(2+9+8)*8,("PNETCDF_VAR",1):(3+120+17)*8}

def inflate(buf, comp):
    if comp == 1: return bz2.decompress(buf)
    if comp == 2: return buf
    out = b""
    while buf:
        d = zlib.decompressobj()
        out += d.decompress(buf)
        buf = d.unused_data
    return out

def main(path):
    f = open(path, "rb").read()
    ver = f[:8].split(b"\0")[0].decode()
    maj, mn = map(int, ver.split("."))
    e = "<" if struct.unpack("<q", f[8:16])[0] == 6567223 else ">"
    comp = f[16]
    if mn >= 41:
        maps = [struct.unpack(e+"QQ", f[48+16*i:64+16*i]) for i in range(64)]
        vers = list(struct.unpack(e+"64I", f[1072:1328]))
    else:
        maps = [struct.unpack(e+"QQ", f[40+16*i:56+16*i]) for i in range(16)]
        vers = list(struct.unpack(e+"16I", f[296:360]))
        if mn < 20:
            maps.insert(4, (0,0)); vers.insert(4, 0)
        maps.insert(6, (0,0)); vers.insert(6, 0)
    for i, (off, ln) in enumerate(maps):
        if ln == 0 or i >= len(NAMES_341): continue
        name = NAMES_341[i]
        data = inflate(f[off:off+ln], comp)
        v = vers[i]
        recs = segs = 0
        first_rank = None
        if (name, v) in FIXED:
            size = FIXED[(name, v)]
            recs = len(data) // size
            if recs: first_rank = struct.unpack(e+"q", data[8:16])[0]
        elif name in ("DXT_POSIX", "DXT_MPIIO"):
            seg = 40 if (name == "DXT_POSIX" and v >= 2) or (name == "DXT_MPIIO" and v >= 3) else 32
            p = 0
            while p < len(data):
                rank = struct.unpack(e+"q", data[p+8:p+16])[0]
                w, r = struct.unpack(e+"qq", data[p+88:p+104])
                if first_rank is None: first_rank = rank
                p += 104 + (w + r) * seg
                recs += 1; segs += w + r
        elif name == "LUSTRE":
            p = 0
            while p < len(data):
                if first_rank is None: first_rank = struct.unpack(e+"q", data[p+8:p+16])[0]
                if v == 1:
                    width = struct.unpack(e+"q", data[p+48:p+56])[0]; p += 56 + 8 * width
                else:
                    nc, ns = struct.unpack(e+"qq", data[p+16:p+32]); p += 32 + 72 * nc + 8 * ns
                recs += 1
        elif name == "HEATMAP":
            p = 0
            while p < len(data):
                if first_rank is None: first_rank = struct.unpack(e+"q", data[p+8:p+16])[0]
                nb = struct.unpack(e+"q", data[p+24:p+32])[0]; p += 48 + 16 * nb; recs += 1
        else:
            continue
        print("%s\t%s\t%d\t%d\t%s" % (os.path.basename(path), name, recs, segs, first_rank))

for a in sys.argv[1:]:
    main(a)
