#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Seeded generator of random generic netlink requests, in nl_oracle's corpus format.

The hand-written corpus (genl-requests.txt) holds the cases someone thought of; this one draws
requests from the whole input space the genl layer parses, so the running kernel can judge kfsim
on cases nobody thought of (ctest netlink/kernel_referee_random).  The same seed gives the same
corpus on every machine: random.Random(seed) only, no clock, no environment.

What one request is drawn from:
  family   nlctrl and ethtool (kfsim has real handlers: EXPECT "same"), and netdev, tcp_metrics,
           mptcp_pm (generated from the specs, stub handlers: EXPECT "auto", see nl_oracle.c);
  command  the family's known ones most of the time, else a boundary (0, 255) or unknown one;
  flags    NLM_F_ROOT/MATCH/ATOMIC/DUMP/EXCL/REPLACE/CREATE/APPEND/ECHO/... and random bits;
  header   genl version/reserved at random or boundary values, or a message without genlmsghdr;
           an nlmsg_type that is no family (control types below 16, ids nobody has);
           an nlmsg_len that lies: longer than the datagram (dropped unanswered), shorter (the
           rest read as the next message), or shorter by exactly a second request appended;
  attrs    the family's attributes with right or wrong lengths, out-of-range values,
           unterminated, empty and overlong strings, nested with and without NLA_F_NESTED,
           nests in nests (deep), duplicates, unknown types (0, maxtype + 1, 0x3fff, with the
           NLA_F_NESTED / NLA_F_NET_BYTEORDER bits), truncated attributes and trailing garbage.

Requests whose answers differ for reasons outside the genl layer are not drawn (they would only
repeat a known drift): GETFAMILY dumps and ids other than nlctrl's (the kernels hold different
families), GETPOLICY of ethtool ops kfsim lacks or of a whole family but nlctrl (policy-drift.txt),
ethtool commands below 100 other than PLCA's and those of src/plca/ethtool_default.c that the
running kernel's veth answers as a driver without the op (the GETs LINKINFO, LINKMODES, CHANNELS
and TUNNEL_INFO it has; its SETs of LINKINFO and LINKMODES end at the missing set op alike), and
TSINFO on other devices than the ifb and in dumps (lo and the veths have get_ts_info).

Usage: nl_gen.py SEED COUNT [--seeds N] [--user-share PERCENT] > corpus.txt
  (COUNT requests for each of the N seeds from SEED on; one process, as Python starts slowly)
"""
import argparse
import random

NLA_F_NESTED = 0x8000
NLA_F_NET_BYTEORDER = 0x4000

NLM_F = [0x8, 0x10, 0x20, 0x100, 0x200, 0x300, 0x400, 0x800, 0x1000]

# Attribute types per family: type -> kind the policy wants (None: anything goes, unknown).
NLCTRL = {1: 'famid', 2: 'str16', 10: 'u32'}
ETH_HEADER = {1: 'u32', 2: 'str128', 3: 'u32', 4: 'u32'}
PLCA_SET = {1: 'header', 2: 'u16', 3: 'u8', 4: 'u8', 5: 'u32', 6: 'u32', 7: 'u32', 8: 'u32',
            9: 'u32'}
# The generated families: every attribute space up to a little past the spec's last one.
NETDEV = {1: 'u32', 2: 'u32', 3: 'u32', 4: 'u32', 5: 'u32', 6: 'nest', 7: 'u32', 8: 'u64'}
TCPM = {1: 'u32', 2: 'hex16', 3: 'u32', 4: 'hex16', 5: 'u64', 6: 'nest'}
MPTCP = {1: 'nest', 2: 'u32', 3: 'u32', 4: 'u8', 5: 'u16', 6: 'u32', 7: 'u32', 8: 'nest'}

FAMILIES = {
    # name: (commands, attrs, genl version, expect)
    'nlctrl': ([3, 10, 3, 10, 1, 2, 4, 5, 6, 7, 8, 9], NLCTRL, 2, 'same'),
    # PLCA's, and the requests of src/plca/ethtool_default.c veth lacks too (ETHTOOL_DEFAULT)
    'ethtool': ([39, 40, 41, 39, 40, 41] + [3, 5, 6, 7, 8, 9, 10, 13, 14, 15, 16, 19, 20, 21,
                                            22, 23, 24, 25, 29, 30, 34, 35, 42], PLCA_SET, 1,
                'same'),
    # not napi-set (14, 6.13) nor bind-tx (15, 6.16): the 6.12 specs kfsim generates lack them
    'netdev': ([1, 5, 10, 11, 12, 13], NETDEV, 1, 'auto'),
    'tcp_metrics': ([1, 2], TCPM, 1, 'auto'),
    'mptcp_pm': ([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13], MPTCP, 1, 'auto'),
}
FAMILY_WEIGHTS = [('nlctrl', 30), ('ethtool', 40), ('netdev', 10), ('tcp_metrics', 8),
                  ('mptcp_pm', 12)]
DEVS = ['eth0', 'eth1', 'lo', 'nosuchdev0', 'eth']
# TSINFO_GET (25) names the ifb only: lo and the veths have get_ts_info (software transmit
# stamps), the ifb and kfsim's mirrored devices none; nor is it dumped (the kernel lists the
# devices with get_ts_info, kfsim none).
TSINFO = 25
TSINFO_DEVS = ['ifb0', 'nosuchdev0', 'eth']
WORDS = ['nlctrl', 'ethtool', 'netdev', 'tcp_metrics', 'mptcp_pm', 'nosuchfam', 'NLCTRL', 'nl']


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        # Top-level types only drawn with their right kind (nlctrl's id, name and op): liberal
        # validation reads any payload long enough, and the first bytes of a nest or a random
        # number would name a family id or an op one kernel has and the other has not.
        self.top_reserved = set()
        self.devs, self.ifindexes = DEVS, [0, 1, 2, 3, 999, 0xffffffff]

    def chance(self, percent):
        return self.r.randrange(100) < percent

    def hexbytes(self, n):
        return ''.join('%02x' % self.r.randrange(256) for _ in range(n))

    def unknown_type(self, known):
        top = max(known) if known else 8
        t = top + 1
        while t in known or t in self.top_reserved:
            t = self.r.choice([0, top + 1, top + 2, top + 30, 0x3fff, self.r.randrange(1, 200)])
        return t | self.r.choice([0, 0, 0, NLA_F_NESTED, NLA_F_NET_BYTEORDER,
                                  NLA_F_NESTED | NLA_F_NET_BYTEORDER])

    def number(self, bits):
        top = (1 << bits) - 1
        return self.r.choice([0, 1, 2, 3, 7, 8, 254, 255, 256, 300, top, top - 1,
                              self.r.randrange(top + 1)])

    def text(self, limit):
        choice = self.r.randrange(6)
        if choice == 0:
            return self.r.choice(DEVS + WORDS)
        if choice == 1:
            return ''
        # around the policy's limit: limit - 1 fits with its NUL, limit does not
        n = self.r.choice([limit - 1, limit, limit + 1, self.r.randrange(1, 40)])
        return ''.join(self.r.choice('abcxyz019') for _ in range(max(n, 1)))

    def scalar(self, t, kind):
        """An attribute of type @t whose policy wants @kind, most often right, else wrong."""
        widths = {'u8': 8, 'u16': 16, 'u32': 32, 'u64': 64}
        wrong = self.chance(25)
        if self.chance(6):  # a known type with a flag bit the policy does not expect
            t |= self.r.choice([NLA_F_NESTED, NLA_F_NET_BYTEORDER])
        if kind == 'famid':
            # nlctrl's own id or none: other ids name different families in the two kernels;
            # wrong only by being short (any two bytes are an id to liberal validation)
            if not wrong:
                return 'u16:%d=%d' % (t, self.r.choice([0, 1, 16, 9999, 0xffff]))
            return self.r.choice(['flag:%d' % t, 'u8:%d=16' % t, 'hex:%d=10' % t])
        if kind in widths and not wrong:
            return '%s:%d=%d' % (kind, t, self.number(widths[kind]))
        if kind.startswith('str') and not wrong:
            limit = int(kind[3:])
            return '%s:%d=%s' % (self.r.choice(['str', 'str', 'str', 'strn']), t,
                                 self.text(limit))
        if kind == 'hex16' and not wrong:
            return 'hex:%d=%s' % (t, self.hexbytes(16))
        # a wrong length or another kind
        pick = self.r.randrange(8)
        if pick == 0:
            return 'flag:%d' % t
        if pick in (1, 2):
            return 'hex:%d=%s' % (t, self.hexbytes(self.r.choice([1, 2, 3, 5, 6, 7, 9, 12, 17])))
        if pick == 3:
            return 'str:%d=%s' % (t, self.text(16))
        if pick == 4:
            return 'nest:%d{%s}' % (t, self.attrs({}, 1, self.r.randrange(3)))
        return '%s:%d=%d' % (self.r.choice(['u8', 'u16', 'u32', 'u64']), t, self.number(32))

    def header(self, t, depth):
        """ethtool's request header: a nest of ETH_HEADER (or not quite)."""
        inner = []
        if self.chance(70):
            inner.append('str:2=%s' % self.r.choice(self.devs) if self.chance(85)
                         else self.scalar(2, 'str128'))
        if self.chance(25):
            inner.append('u32:1=%d' % self.r.choice(self.ifindexes))
        if self.chance(20):
            inner.append('u32:3=%d' % self.r.choice([0, 1, 2, 3, 4, 7, 8, 0xffffffff]))
        if self.chance(10):
            inner.append('u32:4=%d' % self.r.choice([0, 1, 2]))
        if self.chance(20):
            inner.append(self.attrs(ETH_HEADER, depth + 1, self.r.randrange(1, 3)))
        self.r.shuffle(inner)
        kind = 'nest' if self.chance(85) else 'nestnf'
        if self.chance(5):
            return self.scalar(t, 'u32')
        if self.chance(3):
            t |= NLA_F_NET_BYTEORDER
        return '%s:%d{%s}' % (kind, t, ' '.join(inner))

    def deep_nest(self, depth, top=False):
        t = self.r.randrange(0, 12)
        while top and t in self.top_reserved:
            t = self.r.randrange(0, 12)
        if depth <= 0:
            return 'u32:%d=%d' % (t, self.number(32))
        return '%s:%d{%s}' % (self.r.choice(['nest', 'nestnf']), t, self.deep_nest(depth - 1))

    def garbage(self):
        pick = self.r.randrange(5)
        if pick == 0:   # a header cut short
            return 'raw=' + self.hexbytes(self.r.randrange(1, 4))
        if pick == 1:   # an attribute claiming more than is left
            return 'raw=%02x00%04x%s' % (self.r.choice([8, 12, 40, 0xff]), self.r.randrange(12),
                                         self.hexbytes(self.r.choice([0, 2])))
        if pick == 2:   # nla_len below the header's size
            return 'raw=%02x00%s' % (self.r.randrange(4), self.hexbytes(2))
        if pick == 3:   # zero padding that looks like an attribute
            return 'raw=' + '00' * self.r.choice([2, 4, 8])
        return 'raw=' + self.hexbytes(self.r.randrange(1, 24))

    def one_attr(self, known, depth):
        pick = self.r.randrange(100)
        if pick < 65 and known:
            t = self.r.choice(list(known))
            kind = known[t]
            if kind == 'header':
                return self.header(t, depth)
            if kind == 'nest':
                return '%s:%d{%s}' % (self.r.choice(['nest', 'nest', 'nestnf']), t,
                                      self.attrs({1: 'u32', 2: 'u32', 3: 'u16', 5: 'u16'},
                                                 depth + 1, self.r.randrange(4)))
            return self.scalar(t, kind)
        if pick < 80:
            return self.scalar(self.unknown_type(known), self.r.choice(['u8', 'u32', 'str16']))
        if pick < 88:
            return self.deep_nest(self.r.randrange(2, 14), depth == 0)
        if pick < 94 and depth < 6:
            return '%s:%d{%s}' % (self.r.choice(['nest', 'nestnf']), self.unknown_type(known),
                                  self.attrs(known, depth + 1, self.r.randrange(3)))
        return self.garbage()

    def attrs(self, known, depth, count):
        out = []
        for _ in range(count):
            a = self.one_attr(known, depth)
            out.append(a)
            if self.chance(8):
                out.append(a)   # the same attribute twice
        # garbage must end a nest or a message: what follows it is read as part of it
        if self.chance(8) and depth == 0:
            out.append(self.garbage())
        return ' '.join(out)

    def flags(self, family, cmd):
        while True:
            flags = 0x5
            # most go plain: a strict op (ethtool's) refuses other bits before any attribute
            for _ in range(self.r.choice([0, 0, 0, 0, 1, 1, 2, 3])):
                flags |= self.r.choice(NLM_F)
            if self.chance(3):
                flags |= self.r.randrange(0x10000)
            # a GETFAMILY dump lists all families, and the two kernels hold different ones
            if (flags & 0x300) == 0x300 and (family, cmd) in (('nlctrl', 3), ('ethtool', TSINFO)):
                continue
            return flags

    def ctrl_attrs(self, cmd):
        """nlctrl: keep to what both kernels know (names and nlctrl's id), then mutate."""
        out = []
        if self.chance(75):
            name = self.r.choice(['nlctrl', 'ethtool', 'netdev', 'tcp_metrics', 'mptcp_pm',
                                  'nosuchfam'])
            if cmd == 10 and name not in ('nlctrl', 'nosuchfam'):
                # one op, and one both kernels have the same way (policy-drift.txt)
                ops = {'ethtool': [39, 40, 41, 200, 6, 15, 21, 22, 28],
                       'netdev': [1, 5, 10, 11, 12, 13],
                       'tcp_metrics': [], 'mptcp_pm': []}[name]
                if not ops:
                    name = 'nlctrl'
                else:
                    out.append('u32:10=%d' % self.r.choice(ops))
            out.append('str:2=%s' % name)
        elif self.chance(50):
            out.append('u16:1=%d' % self.r.choice([0, 1, 16, 9999, 0xffff]))
        if self.chance(60):
            # GETPOLICY: no second name or op (a whole family's dump differs: policy-drift.txt)
            out.append(self.attrs(NLCTRL if cmd != 10 else {1: 'famid'}, 0,
                                  self.r.randrange(1, 3)))
        self.r.shuffle(out)
        return ' '.join(out)

    def second_message(self):
        """A whole request as raw bytes, sent after the first in the same datagram."""
        name = self.r.choice(['nlctrl', 'ethtool', 'nosuchfam'])
        attr = name.encode() + b'\0'
        attr += b'\0' * (-len(attr) % 4)
        nla_len = 4 + len(name) + 1
        body = bytes([3, 2, 0, 0]) + nla_len.to_bytes(2, 'little') + (2).to_bytes(2, 'little')
        body += attr
        # not a dump: GETFAMILY's would list all families, and the two kernels hold different ones
        flags = self.r.choice([0x5, 0x1, 0x4, 0x0, 0x105, 0x205])
        msg_type = self.r.choice([0x10, 0x10, 0x10, 0x3, 0xffff])
        length = 16 + len(body) + self.r.choice([0, 0, 0, -3, 4])
        head = (length.to_bytes(4, 'little') + msg_type.to_bytes(2, 'little') +
                flags.to_bytes(2, 'little') + (0xabcd).to_bytes(4, 'little') + bytes(4))
        return (head + body).hex(), 16 + len(body)

    def len_lie(self, attrs):
        """A VERSION/RESERVED suffix making nlmsg_len lie, and the attributes it goes with."""
        pick = self.r.randrange(3)
        if pick == 0:
            return '/len+%d' % self.r.choice([1, 3, 4, 8, 100, 5000]), attrs
        if pick == 1:
            # Less than a header's worth: the rest is never read as a message of its own, whose
            # random type could name a family of the running kernel kfsim does not have.
            return '/len-%d' % self.r.choice([1, 2, 3, 4, 5, 8, 12, 15]), attrs
        raw, size = self.second_message()
        return '/len-%d' % size, (attrs + ' raw=' + raw).strip(' -')

    def request(self, idx, as_user):
        family = self.r.choices([f for f, _ in FAMILY_WEIGHTS],
                                [w for _, w in FAMILY_WEIGHTS])[0]
        cmds, known, version, expect = FAMILIES[family]
        cmd = self.r.choice(cmds) if self.chance(90) else self.r.choice([0, 255, 100, 200, 47])
        if family == 'ethtool' and cmd < 100 and cmd not in cmds:
            cmd = 0
        tsinfo = family == 'ethtool' and cmd == TSINFO
        self.devs = TSINFO_DEVS if tsinfo else DEVS
        self.ifindexes = [0, 999, 0xffffffff] + ([] if tsinfo else [1, 2, 3])
        flags = self.flags(family, cmd)
        if self.chance(3):
            hdr = 'none'
        else:
            ver = version if self.chance(75) else self.r.choice([0, 1, 2, 3, 255])
            resv = 0 if self.chance(88) else self.r.choice([1, 2, 0x8000, 0xffff])
            hdr = '%d/%d' % (ver, resv)
        self.top_reserved = {1, 2, 10} if family == 'nlctrl' else set()
        if family == 'nlctrl':
            attrs = self.ctrl_attrs(cmd)
        else:
            attrs = self.attrs(known, 0, self.r.choice([0, 1, 1, 2, 2, 3, 4, 6]))
            if family == 'ethtool' and self.chance(80):
                attrs = (self.header(1, 0) + ' ' + attrs).strip()
        if len(attrs) > 1500:   # nl_oracle's line limit; deep nests and many duplicates
            attrs = self.header(1, 0) if family == 'ethtool' else '-'
        if self.chance(3):
            # no family: control messages (acknowledged, never handled) and ids nobody has
            family, expect = str(self.r.choice([0, 1, 2, 3, 4, 15, 16, 0x7fff, 0xffff])), 'same'
            if family == '16':
                flags &= ~0x100     # nlctrl by its id: no GETFAMILY dump either (see flags())
        if hdr != 'none' and self.chance(5):
            lie, attrs = self.len_lie(attrs)
            hdr += lie
        return '%s | %s | %s | %d | 0x%x | %s | %s | %s' % (
            'g%s' % idx, 'user' if as_user else 'root', family, cmd, flags, hdr,
            attrs or '-', expect)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('seed', type=int)
    ap.add_argument('count', type=int)
    ap.add_argument('--seeds', type=int, default=1, help='seeds from SEED on, COUNT each')
    ap.add_argument('--user-share', type=int, default=25,
                    help='percent of the requests sent as an unprivileged user')
    args = ap.parse_args()
    for seed in range(args.seed, args.seed + args.seeds):
        gen = Gen(seed)
        print('# nl_gen.py %d %d: random generic netlink requests (format: nl_oracle.c)'
              % (seed, args.count))
        for i in range(args.count):
            print(gen.request('%d-%d' % (seed, i), gen.chance(args.user_share)))


if __name__ == '__main__':
    main()
