// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Reference programs for `dynpf bench`, loaded next to the real dynpf ones
 * (one object, one skeleton: .output/bench.skel.h). Never part of the
 * product. The programs live in the headers beside this file:
 *
 *  - empty.bpf.h, bench_empty_*: return at once. Their time is the floor of
 *    one BPF_PROG_TEST_RUN repetition (program call, ctx setup, timer).
 *
 *  - direct.bpf.h (and its direct_*.bpf.h), bench_direct_*: the same headers
 *    dynpf parses, read the classic way, through data/data_end and a header
 *    cursor, with no kfunc in the path: the yardstick dynpf's dynptr parse is
 *    measured against. It mirrors parsers/ on purpose and shares no parsing
 *    code with it (direct.bpf.h says what it takes and why).
 *
 *  - prims.bpf.h, bench_prim_*: the dynptr building blocks one at a time
 *    (constructor, slice, clone, clone + adjust, read), for the primitives
 *    table of `dynpf bench`.
 *
 *  - live.bpf.h, bench_live_*: `dynpf bench --live`'s traffic generator and
 *    its baseline receiver.
 */
#include "dynpf/pkt.h"
#include "common.h"
/* dynpf_ip6chain_note() (ip6ext.h): the RFC 8200 flags, as dynpf sets them */
#include "ip6ext.h"
#include "tlvstep.h"

/* TC_ACT_UNSPEC, what dynpf's TC programs return. */
#define BENCH_TC_NEXT (-1)

char LICENSE[] SEC("license") = "Dual BSD/GPL";

#include "empty.bpf.h"
#include "direct.bpf.h"
#include "prims.bpf.h"
#include "live.bpf.h"
