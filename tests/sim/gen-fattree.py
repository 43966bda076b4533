#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
"""Generate a two- or three-level fat tree as an ibsim net file.

Usage (see --help):
  gen-fattree.py --leaves L --hosts-per-leaf H --spines S --radix R \
      [--hca-ports 1|2] [--port2-leaf same|next] [--links-per-spine K] \
      [--default-link 4xEDR] [--slow-link LEAF:PORT=4xSDR ...] -o FILE
  gen-fattree.py --levels 3 --pods P --leaves L --hosts-per-leaf H \
      --spines S --cores C --radix R [--links-per-core K2] [...] -o FILE

About 2,000 CAs (the large benchmark tree):
  gen-fattree.py --leaves 64 --hosts-per-leaf 32 --spines 32 --radix 64 -o big.net
  -> 96 switches (64 Leaf + 32 Spine), 2,048 CAs, 2,144 nodes,
     4,096 links, 8,192 cabled ports; 2,144 nodes > ibsim's default
     2,048, so start ibsim with `-N 4096`.

Three levels (--levels 3; the scale tests, tests/perf/scale.sh):
  gen-fattree.py --levels 3 --pods 2|8|32 --leaves 16 --hosts-per-leaf 16 \
      --spines 16 --cores 8*P --radix 32 -o scale.net
  -> 512, 2,048 or 8,192 CAs: P pods of 16 leaves (16 hosts each) and 16
     spines, 8*P cores; every switch of radix 32 uses all 32 ports (full
     bisection): 6 cabled ports per CA (1,536 / 6,144 / 24,576 links).
  In pod p every leaf is cabled to every spine of that pod (--leaves and
  --spines count per pod); spine s of every pod is cabled to plane s of the
  cores (cores/spines of them, --cores a multiple of --spines), K2 links to
  each, so every core has K2 links to every pod. Names are numbered across
  the fabric: pod p (0-based) holds Leaf p*L+1..p*L+L and Spine p*S+1..p*S+S;
  plane s holds Core s*G+1..s*G+G (G = C/S). Spine ports 1..L*K1 go down
  (leaf l at l*K1+1..), then up grouped by core (core c of the plane at
  L*K1+1+c*K2..); core ports p*K2+1..p*K2+K2 go to pod p. Core n's GUID is
  0x0002c90200300000 + n; records are CAs, then cores, spines, leaves.

Format choices (ibsim 0.10 parser, ibsim/sim_net.c; the file is the
ibnetdiscover output format plus ibsim's own keyword lines):

* Records: a header line `Switch <nports> "<id>"` or `Ca <nports> "<id>"`
  followed by one line per cabled port `[<port>] "<remote id>"[<rport>]`,
  ended by a blank line. Node ids are the names Spine<n>, Leaf<n>, Hca<n>
  (1-based). ibsim links ports only if both ends name each other, so both
  ends of every cable are written.
* Node description: the quoted text after `#` in the header:
  `# "Leaf3"`, `# "host17 HCA-1"`. Clients and SIM_HOST may use it too.
* GUIDs: ibsim never reads a GUID from a record; it takes them from the
  counters `switchguid=` / `caguid=`, which we set (absolute) before every
  record so GUIDs are unique, deterministic and readable:
      Leaf n   0x0002c90200100000 + n   (switch: one GUID for all ports)
      Spine n  0x0002c90200200000 + n
      Hca n    node 0x0002c90300000000 + 16*n, port p = node GUID + p
* vendid= must be repeated before every record (ibsim resets it to 0
  after each node); devid= sticks. We use 0x02c9 (Mellanox), devid 0xcf08
  for switches and 0x1017 for CAs.
* Link speed and width: parsed from the trailing comment of each port line,
  exactly as ibnetdiscover prints it: `... lid <n> <W>x<SPEED>` where the
  `lid` is the last one on the line and no `"` follows it. For a Ca port
  line the first `lid N lmc M` is the port's own LID (we write 0: the SM
  assigns LIDs). ibsim 0.10 accepts widths 1,2,4,8,12 and speeds
  SDR DDR QDR FDR FDR10 EDR HDR (NDR needs ibsim >= 0.11). A port with no
  such comment is 4x SDR. The active speed/width is the best value enabled
  at both ends, so a "slow link" is written at both ends.
  Example lines:
      [3]	"Hca3"[1]		# "host3 HCA-1" lid 0 4xEDR
      [1]	"Leaf1"[3]		# lid 0 lmc 0 "Leaf1" lid 0 4xEDR
  (The `w=`/`s=`/`e=` per-port fields also work, but ibsim then prints a
  warning for every port line without a comment, so we don't use them.)
* Record order: Ca records first, so the default attach point of clients
  (ibsim's "first port of the file", used when SIM_HOST is unset) is Hca1
  port 1, like a host running the tools. Switches follow.
* Switches declare all R ports; unused ports are Down/Polling.
* Cabling: leaf ports 1..P carry host ports (P = H, or 2*H with
  --hca-ports 2), then uplinks grouped by spine: leaf port P+1+s*K+j is
  link j (0-based) to spine s (0-based); on the spine, ports l*K+1..l*K+K
  go to leaf l. K (links per leaf per spine) defaults to the largest value
  both radixes allow: min((R-P)//S, R//L).
* --hca-ports 2: every CA has two cabled ports. port2-leaf=next (default)
  cables port 2 to the next leaf (leaf l+1, wrapping; same leaf if L=1),
  at leaf ports H+1..2H; port2-leaf=same cables it to the home leaf right
  after port 1 (leaf ports 2i+1, 2i+2).
* ibsim limits: nodes 2048 (-N), switches 256 (-S), ports 13312 (-P,
  a switch uses R+1 entries, a Ca its port count). When the tree is over
  a default the generator says which ibsim arguments to pass (stderr and a
  `# ibsim-args:` comment line).

A machine-readable summary line is written at the top of the file:
  # rdmakit-fattree: switches=.. cas=.. nodes=.. links=.. cabled_ports=..
"""

import argparse
import re
import sys

SPEEDS = ("SDR", "DDR", "QDR", "FDR10", "FDR", "EDR", "HDR")
WIDTHS = (1, 2, 4, 8, 12)
LINK_RE = re.compile(r"^(\d+)[xX](SDR|DDR|QDR|FDR10|FDR|EDR|HDR|NDR)$", re.I)

IBSIM_MAX_NODES = 2048
IBSIM_MAX_SWITCHES = 256
IBSIM_MAX_PORTS = 256 * 36 + 2048 * 2
IBSIM_MAX_LINE = 255

VENDID = 0x02C9
SW_DEVID = 0xCF08
CA_DEVID = 0x1017
LEAF_GUID = 0x0002C90200100000
SPINE_GUID = 0x0002C90200200000
CORE_GUID = 0x0002C90200300000
CA_GUID = 0x0002C90300000000


def die(msg):
    sys.stderr.write("gen-fattree: error: %s\n" % msg)
    sys.exit(2)


def parse_link(text, what):
    m = LINK_RE.match(text.strip())
    if not m:
        die("%s: bad link '%s' (want <width>x<speed>, e.g. 4xEDR, 1xSDR)"
            % (what, text))
    width, speed = int(m.group(1)), m.group(2).upper()
    if width not in WIDTHS:
        die("%s: width %dx not accepted by ibsim (use one of %s)"
            % (what, width, ", ".join("%dx" % w for w in WIDTHS)))
    if speed == "NDR":
        die("%s: NDR is not accepted by ibsim 0.10 (use SDR DDR QDR FDR "
            "FDR10 EDR HDR)" % what)
    return "%dx%s" % (width, speed)


def parse_switch_ref(text, counts):
    t = text.strip()
    m = re.match(r"^(?:(leaf|spine|core))?(\d+)$", t, re.I)
    if not m:
        return None
    kind = (m.group(1) or "leaf").capitalize()
    n = int(m.group(2))
    if not 1 <= n <= counts.get(kind, 0):
        return None
    return "%s%d" % (kind, n)


def check_min(pairs):
    for name, v, lo in pairs:
        if v < lo:
            die("%s must be >= %d (got %d)" % (name, lo, v))


def cable_hosts(args, cable, L):
    """Cable the CAs to their leaves (leaves numbered 1..L across the fabric)."""
    H, hp = args.hosts_per_leaf, args.hca_ports
    for n in range(1, L * H + 1):
        home = (n - 1) // H          # 0-based leaf
        i = (n - 1) % H
        leaf = "Leaf%d" % (home + 1)
        if hp == 1:
            cable("Hca%d" % n, 1, leaf, i + 1)
        elif args.port2_leaf == "same" or L == 1:
            cable("Hca%d" % n, 1, leaf, 2 * i + 1)
            cable("Hca%d" % n, 2, leaf, 2 * i + 2)
        else:
            cable("Hca%d" % n, 1, leaf, i + 1)
            cable("Hca%d" % n, 2, "Leaf%d" % ((home + 1) % L + 1), H + i + 1)


def two_level(args, cable):
    """Leaves and spines; every leaf cabled to every spine. Returns the
    switch kinds (top first), the summary's and the command's own fields."""
    L, H, S, R = args.leaves, args.hosts_per_leaf, args.spines, args.radix
    host_ports = H * args.hca_ports  # host ports per leaf
    if host_ports >= R:
        die("radix limit: leaf needs %d host ports + at least %d uplinks "
            "(one per spine) but --radix is %d"
            % (host_ports, S, R))
    free = R - host_ports
    if free < S:
        die("radix limit: leaf has %d free ports after %d host ports, "
            "not enough to reach each of %d spines (radix %d); lower "
            "--hosts-per-leaf or --spines, or raise --radix"
            % (free, host_ports, S, R))
    if L > R:
        die("radix limit: each spine needs at least one port per leaf "
            "(%d leaves) but --radix is %d" % (L, R))
    kmax = min(free // S, R // L)
    K = args.links_per_spine if args.links_per_spine else kmax
    if K < 1:
        die("--links-per-spine must be >= 1")
    if K * S > free:
        die("radix limit: %d links x %d spines = %d uplinks per leaf, but "
            "only %d leaf ports are free (radix %d - %d host ports)"
            % (K, S, K * S, free, R, host_ports))
    if K * L > R:
        die("radix limit: %d links x %d leaves = %d ports per spine, but "
            "--radix is %d" % (K, L, K * L, R))
    cable_hosts(args, cable, L)
    for l in range(L):
        for s in range(S):
            for j in range(K):
                cable("Leaf%d" % (l + 1), host_ports + 1 + s * K + j,
                      "Spine%d" % (s + 1), l * K + j + 1)
    kinds = [("Spine", S, SPINE_GUID), ("Leaf", L, LEAF_GUID)]
    summary = "leaves=%d spines=%d" % (L, S)
    tail = "links_per_spine=%d" % K
    cmd = "--leaves %d --hosts-per-leaf %d --spines %d" % (L, H, S)
    return kinds, summary, tail, cmd, "--links-per-spine %d" % K


def three_level(args, cable):
    """Pods of leaves and spines, and cores above them. In pod p (0-based)
    every leaf is cabled to every spine of the pod (K1 links each); spine s of
    every pod is cabled to the G = cores/spines cores of plane s (K2 links
    each), so each core has K2 links to each pod."""
    P, Lp, H, Sp, C, R = (args.pods, args.leaves, args.hosts_per_leaf,
                          args.spines, args.cores, args.radix)
    check_min((("--pods", P, 1), ("--cores", C, 1)))
    if C % Sp:
        die("--cores %d is not a multiple of --spines %d: spine s of every "
            "pod goes to a plane of cores/spines cores" % (C, Sp))
    G = C // Sp                       # cores per plane
    host_ports = H * args.hca_ports   # host ports per leaf
    if host_ports + Sp > R:
        die("radix limit: leaf needs %d host ports + %d uplinks (one per "
            "spine of its pod) but --radix is %d" % (host_ports, Sp, R))
    if Lp + G > R:
        die("radix limit: spine needs %d ports down (one per leaf of its pod)"
            " + %d up (one per core of its plane) but --radix is %d"
            % (Lp, G, R))
    if P > R:
        die("radix limit: each core needs one port per pod (%d pods) but "
            "--radix is %d" % (P, R))
    K1 = args.links_per_spine or min((R - host_ports) // Sp, (R - G) // Lp)
    if K1 < 1:
        die("--links-per-spine must be >= 1")
    if host_ports + K1 * Sp > R:
        die("radix limit: %d host ports + %d links x %d spines per leaf, but "
            "--radix is %d" % (host_ports, K1, Sp, R))
    down = Lp * K1                    # spine ports to its pod's leaves
    if down + G > R:
        die("radix limit: spine needs %d ports down (%d links x %d leaves) + "
            "%d up, but --radix is %d" % (down, K1, Lp, G, R))
    K2 = args.links_per_core or min((R - down) // G, R // P)
    if K2 < 1:
        die("--links-per-core must be >= 1")
    if down + G * K2 > R:
        die("radix limit: spine needs %d ports down + %d links x %d cores up,"
            " but --radix is %d" % (down, K2, G, R))
    if P * K2 > R:
        die("radix limit: %d links x %d pods = %d ports per core, but "
            "--radix is %d" % (K2, P, P * K2, R))
    cable_hosts(args, cable, P * Lp)
    for p in range(P):
        for l in range(Lp):
            for s in range(Sp):
                for j in range(K1):
                    cable("Leaf%d" % (p * Lp + l + 1), host_ports + 1 + s * K1 + j,
                          "Spine%d" % (p * Sp + s + 1), l * K1 + j + 1)
        for s in range(Sp):
            for c in range(G):
                for j in range(K2):
                    cable("Spine%d" % (p * Sp + s + 1), down + 1 + c * K2 + j,
                          "Core%d" % (s * G + c + 1), p * K2 + j + 1)
    kinds = [("Core", C, CORE_GUID), ("Spine", P * Sp, SPINE_GUID),
             ("Leaf", P * Lp, LEAF_GUID)]
    summary = "levels=3 pods=%d leaves=%d spines=%d cores=%d" % (
        P, P * Lp, P * Sp, C)
    tail = "links_per_spine=%d links_per_core=%d" % (K1, K2)
    cmd = ("--levels 3 --pods %d --leaves %d --hosts-per-leaf %d --spines %d "
           "--cores %d" % (P, Lp, H, Sp, C))
    return kinds, summary, tail, cmd, ("--links-per-spine %d --links-per-core %d"
                                       % (K1, K2))


def build(args):
    H, R, hp = args.hosts_per_leaf, args.radix, args.hca_ports
    check_min((("--leaves", args.leaves, 1), ("--hosts-per-leaf", H, 0),
               ("--spines", args.spines, 1), ("--radix", R, 2)))
    if R > 254:
        die("--radix %d: an IB switch has at most 254 external ports" % R)
    if hp not in (1, 2):
        die("--hca-ports must be 1 or 2")
    if args.levels == 2 and (args.pods or args.cores or args.links_per_core):
        die("--pods, --cores and --links-per-core need --levels 3")
    if args.levels == 3 and not (args.pods and args.cores):
        die("--levels 3 needs --pods and --cores")

    default = parse_link(args.default_link, "--default-link")
    # links[(node, port)] = (rnode, rport); speed per cable
    links = {}

    def cable(a, ap, b, bp):
        links[(a, ap)] = (b, bp)
        links[(b, bp)] = (a, ap)

    level = two_level if args.levels == 2 else three_level
    kinds, sum_switches, sum_links, cmd_switches, cmd_links = level(args, cable)
    counts = {kind: n for kind, n, _ in kinds}
    L = counts["Leaf"]
    ncas = L * H

    speed = {}
    for spec in args.slow_link or []:
        if "=" not in spec or ":" not in spec.split("=", 1)[0]:
            die("--slow-link '%s': want LEAF:PORT=LINK, e.g. Leaf1:3=4xSDR"
                % spec)
        ref, link = spec.split("=", 1)
        sw, port = ref.rsplit(":", 1)
        node = parse_switch_ref(sw, counts)
        if node is None:
            die("--slow-link '%s': no switch '%s' (%s; a bare number means a "
                "leaf)" % (spec, sw, ", ".join(
                    "%s1..%s%d" % (k, k, n) for k, n, _ in reversed(kinds))))
        try:
            p = int(port)
        except ValueError:
            die("--slow-link '%s': port '%s' is not a number" % (spec, port))
        if not 1 <= p <= R:
            die("--slow-link '%s': port %d outside 1..%d" % (spec, p, R))
        if (node, p) not in links:
            die("--slow-link '%s': %s port %d is not cabled" % (spec, node, p))
        lk = parse_link(link, "--slow-link '%s'" % spec)
        speed[(node, p)] = lk
        speed[links[(node, p)]] = lk

    switches = sum(counts.values())
    nodes_total = ncas + switches
    port_entries = switches * (R + 1) + ncas * hp
    nlinks = len(links) // 2
    ibsim_args = []
    if nodes_total > IBSIM_MAX_NODES:
        n = 4096
        while n < nodes_total:
            n *= 2
        ibsim_args += ["-N", str(n)]
    if switches > IBSIM_MAX_SWITCHES:
        ibsim_args += ["-S", str(switches)]
    if port_entries > IBSIM_MAX_PORTS:
        ibsim_args += ["-P", str(port_entries)]

    def desc(node):
        if node.startswith("Hca"):
            return "host%s HCA-1" % node[3:]
        return node

    def tail(node, port):
        return "lid 0 %s" % speed.get((node, port), default)

    out = []
    w = out.append
    summary = ("switches=%d %s cas=%d nodes=%d links=%d "
               "cabled_ports=%d radix=%d hca_ports=%d %s "
               "default_link=%s slow_links=%d"
               % (switches, sum_switches, ncas, nodes_total, nlinks,
                  2 * nlinks, R, hp, sum_links, default,
                  len(args.slow_link or [])))
    w("# rdmakit-fattree: %s" % summary)
    w("# ibsim-args: %s" % " ".join(ibsim_args))
    cmd = ("%s --radix %d --hca-ports %d %s --default-link %s"
           % (cmd_switches, R, hp, cmd_links, default))
    if hp == 2:
        cmd += " --port2-leaf %s" % args.port2_leaf
    for spec in args.slow_link or []:
        cmd += " --slow-link %s" % spec
    w("# generated by: tests/sim/gen-fattree.py %s" % cmd)
    w("# %s fat tree for ibsim (ibnetdiscover format); see the"
      % ("Two-level" if args.levels == 2 else "Three-level"))
    w("# generator's header for the syntax. First record = default SM/client"
      " node.")
    w("")
    w("devid=0x%04x" % CA_DEVID)
    for n in range(1, ncas + 1):
        node = "Hca%d" % n
        w("vendid=0x%04x" % VENDID)
        w("caguid=0x%016x" % (CA_GUID + 16 * n))
        w('Ca\t%d "%s"\t\t# "%s"' % (hp, node, desc(node)))
        for p in range(1, hp + 1):
            rn, rp = links[(node, p)]
            w('[%d]\t"%s"[%d]\t\t# lid 0 lmc 0 "%s" %s'
              % (p, rn, rp, desc(rn), tail(node, p)))
        w("")
    w("devid=0x%04x" % SW_DEVID)
    for kind, count, base in kinds:
        for n in range(1, count + 1):
            node = "%s%d" % (kind, n)
            w("vendid=0x%04x" % VENDID)
            w("switchguid=0x%016x" % (base + n))
            w('Switch\t%d "%s"\t\t# "%s" enhanced port 0 lid 0 lmc 0'
              % (R, node, desc(node)))
            for p in range(1, R + 1):
                if (node, p) in links:
                    rn, rp = links[(node, p)]
                    w('[%d]\t"%s"[%d]\t\t# "%s" %s'
                      % (p, rn, rp, desc(rn), tail(node, p)))
            w("")
    for line in out:
        if len(line) > IBSIM_MAX_LINE - 1:
            die("internal: line longer than ibsim's 255 chars: %s" % line)
    return out, summary, ibsim_args


def main():
    ap = argparse.ArgumentParser(
        description="Generate a two- or three-level fat tree net file for "
                    "ibsim.",
        epilog="Example (~2,000 CAs): --leaves 64 --hosts-per-leaf 32 "
               "--spines 32 --radix 64  (96 switches, 2,048 CAs, 8,192 "
               "cabled ports; run ibsim with -N 4096). Three levels, 8,192 "
               "CAs: --levels 3 --pods 32 --leaves 16 --hosts-per-leaf 16 "
               "--spines 16 --cores 256 --radix 32 (1,280 switches, 49,152 "
               "cabled ports; ibsim -N 16384 -S 1280 -P 50432)")
    ap.add_argument("--levels", type=int, default=2, choices=(2, 3),
                    help="2: leaves and spines (default); 3: pods of leaves "
                         "and spines, and cores")
    ap.add_argument("--leaves", type=int, required=True,
                    help="leaves (with --levels 3: per pod)")
    ap.add_argument("--hosts-per-leaf", type=int, required=True,
                    help="CAs homed on each leaf")
    ap.add_argument("--spines", type=int, required=True,
                    help="spines (with --levels 3: per pod)")
    ap.add_argument("--pods", type=int, default=0,
                    help="with --levels 3: pods of --leaves and --spines")
    ap.add_argument("--cores", type=int, default=0,
                    help="with --levels 3: core switches, a multiple of "
                         "--spines (spine s of each pod reaches plane s of "
                         "cores/spines cores)")
    ap.add_argument("--radix", type=int, required=True,
                    help="ports per switch (every level)")
    ap.add_argument("--hca-ports", type=int, default=1, choices=(1, 2))
    ap.add_argument("--port2-leaf", choices=("next", "same"), default="next",
                    help="with --hca-ports 2: cable port 2 to the next leaf "
                         "(default) or to the home leaf")
    ap.add_argument("--links-per-spine", type=int, default=0,
                    help="parallel links from each leaf to each spine "
                         "(default: as many as the radix allows)")
    ap.add_argument("--links-per-core", type=int, default=0,
                    help="with --levels 3: parallel links from each spine "
                         "to each core of its plane (default: as many as "
                         "the radix allows)")
    ap.add_argument("--default-link", default="4xEDR",
                    help="width x speed of every link (default 4xEDR)")
    ap.add_argument("--slow-link", action="append", metavar="LEAF:PORT=LINK",
                    help="override one cable (both ends), e.g. Leaf1:3=4xSDR;"
                         " LEAF may be a number, LeafN, SpineN or CoreN; "
                         "repeatable")
    ap.add_argument("-o", "--output", required=True,
                    help="output file ('-' for stdout)")
    ap.add_argument("-q", "--quiet", action="store_true",
                    help="no summary on stderr")
    args = ap.parse_args()
    out, summary, ibsim_args = build(args)
    text = "\n".join(out) + "\n"
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w") as f:
            f.write(text)
    if not args.quiet:
        sys.stderr.write("gen-fattree: %s\n" % summary)
        if ibsim_args:
            sys.stderr.write("gen-fattree: over ibsim defaults: run ibsim "
                             "with %s\n" % " ".join(ibsim_args))


if __name__ == "__main__":
    main()
