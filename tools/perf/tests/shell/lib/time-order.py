#!/usr/bin/env python3
# time-order.py FILE [--list]: walks the records of a perf.data file in file
# order and reports the first that goes back in time, as a reader that
# sorts records between FINISHED_ROUND marks, or one that flushes by size
# (hotspot with tracepoints), would meet it.  Exit 0: in order, 1: a
# violation (printed), 2: the file cannot be walked (pipe, compressed).
#
# A record's time is its sample's PERF_SAMPLE_TIME, or the time of its
# sample_id_all trailer.  Records of time 0 before the first record with a
# real time are the leading synthesized block, allowed.  After it:
#  - round: no record is earlier than the latest record of the rounds
#    before its own (at each FINISHED_ROUND hotspot flushes half of what
#    it holds, and perf what came before the round before);
#  - side-band: no record that tells a task's or the kernel's state (COMM,
#    FORK, EXIT, MMAP, MMAP2, KSYMBOL, ...) is earlier than any record
#    before it in the file: a reader that flushed samples by their times
#    could not apply it to them any more.  Samples and the events' own
#    records (THROTTLE, LOST, ...) come per CPU buffer, each newest or
#    oldest first, and are sorted by readers within their round.
# These are a dump's rules, which it can keep: it writes its ring buffers
# once the process table is written.  A streamed file is written a ring
# buffer after another at each pass, and a record of one CPU may follow a
# later one of another, even across a round (perf flushes a round only
# after the next one): perf record's files, the distro's too, break them.
# --list prints "offset type time" for every timed record.
import struct
import sys

SAMPLE, ROUND, USER_START, COMPRESSED = 9, 68, 64, 81
NAMES = {1: "MMAP", 2: "LOST", 3: "COMM", 4: "EXIT", 5: "THROTTLE", 6: "UNTHROTTLE",
         7: "FORK", 8: "READ", 9: "SAMPLE", 10: "MMAP2", 11: "AUX", 12: "ITRACE_START",
         13: "LOST_SAMPLES", 14: "SWITCH", 15: "SWITCH_CPU_WIDE", 16: "NAMESPACES",
         17: "KSYMBOL", 18: "BPF_EVENT", 19: "CGROUP", 20: "TEXT_POKE"}
STATE = {1, 3, 4, 7, 10, 16, 17, 18, 19, 20}
IDENTIFIER, IP, TID, TIME, ID, STREAM_ID, CPU = 1 << 16, 1 << 0, 1 << 1, 1 << 2, 1 << 6, 1 << 9, 1 << 7
SAMPLE_ID_ALL = 1 << 18


def name(t):
    return NAMES.get(t, "type %d" % t)


class Attr:
    def __init__(self, raw):
        self.sample_type = struct.unpack_from("<Q", raw, 24)[0]
        self.id_all = bool(struct.unpack_from("<Q", raw, 40)[0] & SAMPLE_ID_ALL)

    def sample_time(self, body):
        if not self.sample_type & TIME:
            return None
        n = sum(1 for b in (IDENTIFIER, IP, TID) if self.sample_type & b)
        return struct.unpack_from("<Q", body, 8 * n)[0]

    def trailer_time(self, body):
        if not self.id_all or not self.sample_type & TIME:
            return None
        n = 1 + sum(1 for b in (ID, STREAM_ID, CPU, IDENTIFIER) if self.sample_type & b)
        if len(body) < 8 * n:
            return None
        return struct.unpack_from("<Q", body, len(body) - 8 * n)[0]


def read_attrs(data):
    magic, hsize, attr_size, a_off, a_size = struct.unpack_from("<8sQQQQ", data, 0)
    if magic != b"PERFILE2":
        raise ValueError("not a perf.data file (a pipe's stream?)")
    attrs, by_id = [], {}
    for off in range(a_off, a_off + a_size, attr_size):
        attr = Attr(data[off:off + attr_size - 16])
        ids_off, ids_size = struct.unpack_from("<QQ", data, off + attr_size - 16)
        for k in range(ids_off, ids_off + ids_size, 8):
            by_id[struct.unpack_from("<Q", data, k)[0]] = attr
        attrs.append(attr)
    d_off, d_size = struct.unpack_from("<QQ", data, 40)
    return attrs, by_id, d_off, d_size


def attr_of(attrs, by_id, kind, body):
    # With IDENTIFIER the id is a sample's first word or a trailer's last;
    # without, every event is laid out alike and the first attr tells.
    first = attrs[0]
    if not first.sample_type & IDENTIFIER or len(body) < 8:
        return first
    word = body[:8] if kind == SAMPLE else body[-8:]
    return by_id.get(struct.unpack("<Q", word)[0], first)


def walk(path, listing):
    with open(path, "rb") as f:
        data = f.read()
    attrs, by_id, off, size = read_attrs(data)
    end = off + size
    leading = True
    before = 0		# the latest time of the rounds before this one
    in_round = 0	# the latest time of this round
    latest = (0, 0, 0)	# (time, offset, type) of the latest record so far
    while off + 8 <= end:
        kind, misc, rsize = struct.unpack_from("<IHH", data, off)
        if rsize < 8 or off + rsize > end:
            print("%s: a record of size %d at offset %#x runs past the data" % (path, rsize, off))
            return 2
        body = data[off + 8:off + rsize]
        if kind == COMPRESSED:
            print("%s: compressed records (-z) are not walked" % path)
            return 2
        if kind == ROUND:
            before = max(before, in_round)
        t = None
        if kind < USER_START:
            attr = attr_of(attrs, by_id, kind, body)
            t = attr.sample_time(body) if kind == SAMPLE else attr.trailer_time(body)
        if t is None:
            off += rsize
            continue
        if listing:
            print("%#x %s %d" % (off, name(kind), t))
        if leading and t == 0:
            off += rsize
            continue
        leading = False
        if t < before:
            print("%s: the %s at offset %#x has time %d, earlier than %d of a round before it"
                  % (path, name(kind), off, t, before))
            return 1
        if kind in STATE and t < latest[0]:
            print("%s: the %s at offset %#x has time %d, earlier than the %s at offset %#x "
                  "before it, of time %d" % (path, name(kind), off, t, name(latest[2]),
                                             latest[1], latest[0]))
            return 1
        in_round = max(in_round, t)
        if t >= latest[0]:
            latest = (t, off, kind)
        off += rsize
    return 0


def main():
    if len(sys.argv) < 2:
        print("usage: time-order.py FILE [--list]", file=sys.stderr)
        return 2
    try:
        return walk(sys.argv[1], "--list" in sys.argv[2:])
    except (OSError, ValueError, struct.error) as e:
        print("%s: %s" % (sys.argv[1], e))
        return 2


sys.exit(main())
