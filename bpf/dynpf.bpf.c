// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf's packet programs: XDP (linear and multi-buffer) and TC (ingress and
 * egress). Each entry point only builds its dynptr and calls dynpf_run(); the
 * parse is the one in parsers/, shared with the native build.
 */
#include "dynpf/pkt.h"

/*
 * The bench's ablation (dynpf bench, "where the time goes"): built apart
 * with DYNPF_ABLATION (.output/dynpf_abl.bpf.o, loader/bench/rules_stages.c),
 * it stops after stage dynpf_stop_after of a packet's work, to time each
 * stage in one run. Stages 5 to 8 stop the making of the classifier's
 * candidate tuples after a step (none made; the selection; the quick
 * filters; the field filters and the key), and the packet is classified on
 * without candidates. The product has none of it: tests of a read-only
 * global that the verifier prunes away still change clang's code, and with
 * those of stages 5 to 8 the product ran 1-9% slower (bench --versus, two
 * runs, 0, 1 and 10,000 rules).
 */
#ifdef DYNPF_ABLATION
const volatile __u8 dynpf_stop_after = 0;
enum {
	DYNPF_STOP_DYNPTR = 1,  /* bpf_dynptr_from_xdp/_skb */
	DYNPF_STOP_MAPS,        /* + the per-CPU and state lookups */
	DYNPF_STOP_CURSOR,      /* + the cursor and its first window */
	DYNPF_STOP_PARSE,       /* + the parse */
	DYNPF_STOP_CAND_NONE,   /* + the classifier: the view, the catch-alls */
	DYNPF_STOP_CAND_SELECT, /* + the filters' values, the tuples by family and protocol */
	DYNPF_STOP_CAND_QUICK,  /* + the quick filters */
	DYNPF_STOP_CAND_FIELD,  /* + the field filters and the key */
	DYNPF_STOP_CLASSIFY,    /* + the probes (then: the counters) */
};
#define DYNPF_STOPPED(stage) (dynpf_stop_after == (stage))
#define DYNPF_CAND_STOP(step) DYNPF_STOPPED(DYNPF_STOP_CAND_##step)
/* The candidates' cache (bpf/classify.h) neither read nor written: every
 * packet makes its candidates. The bench sets it for every stage it stops
 * after, and for one program that does not stop (the cache's ablation). */
const volatile __u8 dynpf_cc_off = 0;
#define DYNPF_CC_OFF dynpf_cc_off
#else
#define DYNPF_STOPPED(stage) 0
#endif
#define DYNPF_STOP(stage)                 \
	do {                              \
		if (DYNPF_STOPPED(stage)) \
			return NULL;      \
	} while (0)

#include "rules.h" /* before the parse graph: the TCP option gate */
#include "graph.h"
#include "classify.h"

/* TC_ACT_UNSPEC (clsact) and TCX_NEXT (tcx): let the next program decide. */
#define DYNPF_TC_NEXT (-1)
#define DYNPF_TC_SHOT 2

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/* Set by the loader before load; the verifier prunes what they turn off. */
const volatile __u8 dynpf_trace_on = 0;     /* emit every dynpf_pkt on dynpf_trace */
const volatile __u8 dynpf_trace_nowake = 0; /* its reader consumes after each test run */
/* Parse limits (struct dynpf_parse_cfg), one scalar each: clang drops the
 * read of a volatile struct copied whole. */
const volatile __u8 dynpf_cfg_max_ext = DYNPF_MAX_EXT;
const volatile __u8 dynpf_cfg_max_stacks = DYNPF_MAX_STACKS;
/* The parse result is 1.3 KB: too big for the 512-byte BPF stack. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct dynpf_pkt);
} dynpf_scratch SEC(".maps");

/* Where option areas are copied to be walked (parsers/cursor.h). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct dynpf_area);
} dynpf_area SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, (DYNPF_IF_SLOTS * DYNPF_HOOK_MAX));
	__type(key, __u32);
	__type(value, struct dynpf_stats);
} dynpf_stats SEC(".maps");

/* Per ifindex, its slot of dynpf_stats (0: none given, the shared slot). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, DYNPF_IFSLOT_MAX_IFINDEX);
	__type(key, __u32);
	__type(value, __u32);
} dynpf_ifslots SEC(".maps");

/* The counters of this interface and hook: one inlined array load more. */
static __always_inline struct dynpf_stats *dynpf_stats_get(__u32 ifindex, __u32 hook)
{
	__u32 *slot = bpf_map_lookup_elem(&dynpf_ifslots, &ifindex);
	__u32 k = dynpf_stats_key(slot ? *slot % DYNPF_IF_SLOTS : 0, hook);

	return bpf_map_lookup_elem(&dynpf_stats, &k);
}

/* The verdict of the last packet, per CPU (test runs read it). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct dynpf_verdict);
} dynpf_verdicts SEC(".maps");

/* With dynpf_trace_on: one struct dynpf_trace_rec per packet. */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);
} dynpf_trace SEC(".maps");

/*
 * Two counters per packet, four when it failed to parse: the totals and the
 * packets parsed without error follow from these (dynpf_stats_read()).
 */
static __always_inline void dynpf_count(struct dynpf_stats *s, const struct dynpf_pkt *p,
					const struct dynpf_verdict *v)
{
	__u32 e = p->err & (DYNPF_STATS_ERR_SLOTS - 1), a = v->action;

	if (a >= DYNPF_STATS_ACTS)
		a = 0;
	s->act[a]++;
	s->act_bytes[a] += p->pkt_len;
	if (e) {
		s->err[e]++;
		s->err_bytes[e] += p->pkt_len;
	}
}

static __always_inline void dynpf_trace_out(struct dynpf_stats *s, const struct dynpf_pkt *p,
					    const struct dynpf_verdict *v)
{
	struct bpf_dynptr rec;

	if (bpf_ringbuf_reserve_dynptr(&dynpf_trace, sizeof(struct dynpf_trace_rec), 0, &rec)) {
		bpf_ringbuf_discard_dynptr(&rec, 0);
		s->trace_lost++;
		return;
	}
	bpf_dynptr_write(&rec, 0, (void *)p, sizeof(*p), 0);
	bpf_dynptr_write(&rec, offsetof(struct dynpf_trace_rec, v), (void *)v, sizeof(*v), 0);
	bpf_ringbuf_submit_dynptr(&rec, dynpf_trace_nowake ? BPF_RB_NO_WAKEUP : 0);
}

/*
 * What the parse may skip (DYNPF_SKIP_*) when the rules need only needs.
 * inner: may a rule on the inner stack (`inner`) be alive at the packet's
 * generation? Such a rule is in a tuple of stack 1 (its key's stack; a
 * rule that tests nothing is a catch-all and reads no layer), and the
 * state's inner_sel says whether the selection holds one (include/dynpf/
 * ctrl.h): read from the line of pub, once a packet, not by the walk
 * when it reaches an inner TCP or UDP header, nor when it enters the
 * inner stack (there, dynpf_xdp took 775k and 648k verified instructions,
 * 519k here).
 */
static __always_inline __u8 dynpf_skips(__u32 needs, __u32 inner)
{
	__u8 skip = 0;

	if (needs & DYNPF_NEED_FULL)
		return 0;
	if (!(needs & DYNPF_NEED_TCP_OPT))
		skip |= DYNPF_SKIP_TCP_OPT;
	else
		skip |= DYNPF_SKIP_TCP_OPT_GATE;
	if (!(needs & DYNPF_NEED_INNER))
		skip |= DYNPF_SKIP_INNER;
	/*
	 * The inner stack for the TLVs of the rules on the outer one only (a
	 * TLV of any stack matches): no TLV lies behind its TCP header but
	 * TCP options, none behind its UDP header but a Geneve header's
	 * options (a tunnel in the tunnel). A declared protocol needs both
	 * (dynpf_rule_needs()), and the rules on the inner stack everything.
	 */
	else if ((needs & (DYNPF_NEED_TCP_OPT | DYNPF_NEED_TUN_OPT)) !=
			 (DYNPF_NEED_TCP_OPT | DYNPF_NEED_TUN_OPT) &&
		 !inner) {
		if (!(needs & DYNPF_NEED_TCP_OPT))
			skip |= DYNPF_SKIP_INNER_TCP;
		if (!(needs & DYNPF_NEED_TUN_OPT))
			skip |= DYNPF_SKIP_INNER_UDP;
	}
	if (!(needs & (DYNPF_NEED_INNER | DYNPF_NEED_TUN_OPT)))
		skip |= DYNPF_SKIP_TUN_OPT;
	if (!(needs & DYNPF_NEED_TLV_LIST))
		skip |= DYNPF_SKIP_TLV_LIST;
	return skip;
}

/* Parse, classify, count: the verdict (NULL when a map is missing). */
/* len: the packet's length; 0 on xdp.frags, where it is not in the context. */
/* ctx: the hook's context (a struct xdp_md or a struct __sk_buff, by hook). */
static __always_inline struct dynpf_verdict *dynpf_run(const struct bpf_dynptr *dp, __u32 len,
						       __u32 hook, __u32 ifindex,
						       __u32 vlan_offload, void *ctx)
{
	const __u8 *head, *head_end;
	struct dynpf_verdict *v;
	struct dynpf_state *st;
	struct dynpf_cursor c;
	struct dynpf_stats *s;
	struct dynpf_area *a;
	struct dynpf_pkt *p;
	__u32 zero = 0, needs, any_head, tuples;
	__u64 pub;

	s = dynpf_stats_get(ifindex, hook);
	p = bpf_map_lookup_elem(&dynpf_scratch, &zero);
	a = bpf_map_lookup_elem(&dynpf_area, &zero);
	v = bpf_map_lookup_elem(&dynpf_verdicts, &zero);
	st = dynpf_state_get();
	if (!s || !p || !a || !v || !st)
		return NULL;
	/*
	 * The generation of the rule set this packet is parsed for and
	 * classified at, read once with what its rules need of the parse
	 * (DYNPF_NEED_*) and the settings: one load of the published word.
	 * The parse does only what the rules need, unless the programs trace
	 * (then everything).
	 */
	pub = *(volatile __u64 *)&st->pub;
	needs = dynpf_trace_on ? DYNPF_NEED_FULL : pub & DYNPF_PUB_NEEDS;
	DYNPF_STOP(DYNPF_STOP_MAPS);
	struct dynpf_parse_cfg cfg = {
		.max_ext = dynpf_cfg_max_ext,
		.max_stacks = dynpf_cfg_max_stacks,
	};

	/* Here rather than before the lookups: there it took dynpf_xdp_frags
	 * from 579k to 809k instructions (its spills differ). In the lazy
	 * build there is no dynptr yet: the frame's helper says it. */
	if (hook == DYNPF_HOOK_XDP_FRAGS)
		len = DYNPF_LAZY ? bpf_xdp_get_buff_len(ctx) : bpf_dynptr_size(dp);
	/*
	 * The first window is copied from the context's linear head
	 * (dynpf_cur_init(): a slice would cost a kfunc call, about 15 ns);
	 * its pointers are loaded here, so that none lives across the lookups.
	 */
	if (hook == DYNPF_HOOK_XDP || hook == DYNPF_HOOK_XDP_FRAGS) {
		head = (const __u8 *)(long)((struct xdp_md *)ctx)->data;
		head_end = (const __u8 *)(long)((struct xdp_md *)ctx)->data_end;
	} else {
		head = (const __u8 *)(long)((struct __sk_buff *)ctx)->data;
		head_end = (const __u8 *)(long)((struct __sk_buff *)ctx)->data_end;
	}
	dynpf_cur_init(&c, dp, a, cfg, len, head, head_end, ctx);
	a->vlan_offload = vlan_offload;
	c.skip = dynpf_skips(needs, *(volatile __u32 *)&st->inner_sel);
	/*
	 * Declared protocols: only when a rule alive at the generation needs
	 * them (the drain says so in pub), or the programs trace; else the
	 * parse looks for none (c.decl 0) and no table is read.
	 */
	if (dynpf_trace_on || (pub & DYNPF_PUB_DECL)) {
		const struct dynpf_proto_tab *tab = dynpf_decl_pick(&c, DYNPF_PUB_GEN(pub));

		if (tab)
			c.decl = tab->bits;
	}
	DYNPF_STOP(DYNPF_STOP_CURSOR);
	dynpf_parse_packet(&c, p);
	p->hook = hook;
	p->ifindex = ifindex;
	DYNPF_STOP(DYNPF_STOP_PARSE);
	/*
	 * The catch-alls' chain and the tuple slots in use, read after pub
	 * (volatile loads, in order): the chain holds every entry born at
	 * the packet's generation, and a tuple slot is taken before the
	 * commit that links its first rule is published and freed a grace
	 * period after its last rule died, so 0 tuples means none holds a
	 * rule alive at the packet's generation. Read here, not in the
	 * classifier (dynpf_xdp: 787k verified instructions there, 587k
	 * here), nor before the parse (the TC frames: 528 bytes).
	 */
	any_head = *(volatile __u32 *)&st->any_head;
	tuples = *(volatile __u32 *)&st->tuples_used;
	/* No tuple of the inner stack (inner_sel 0): the classifier makes
	 * none of its candidates (pub's DYNPF_NEED_INNER off for it), as it
	 * would find none; read again, from pub's line, not kept across the
	 * parse. */
	pub &= ~((__u64) !*(volatile __u32 *)&st->inner_sel * DYNPF_NEED_INNER);
	dynpf_classify_or_pass(p, v, pub, dp, any_head, tuples, ctx);
	DYNPF_STOP(DYNPF_STOP_CLASSIFY);
	dynpf_count(s, p, v);
	if (v->sample && !DYNPF_DP_MAKE(ctx, dp))
		dynpf_sample(dp, p, v);
	if (dynpf_trace_on)
		dynpf_trace_out(s, p, v);
	return v;
}

static __always_inline void dynpf_no_dynptr(__u32 ifindex, __u32 hook)
{
	struct dynpf_stats *s = dynpf_stats_get(ifindex, hook);

	if (s)
		s->no_dynptr++;
}

/* The hook's return code for verdict v: its drop, a redirect, or its pass. */
static __always_inline int dynpf_act(const struct dynpf_verdict *v, int pass, int drop)
{
	switch (v->action) {
	case DYNPF_ACT_DROP:
		return drop;
	case DYNPF_ACT_REDIRECT:
		return bpf_redirect(v->arg, 0);
	}
	return pass;
}

/* The XDP programs: not in the lazy build of the TC ones. */
#ifndef DYNPF_DP_SKB
static __always_inline int dynpf_xdp_common(struct xdp_md *ctx, __u32 hook)
{
	struct bpf_dynptr dp;
	struct dynpf_verdict *v;
	__u32 len = 0;

	/*
	 * A linear buff's length is in the context (a multi-buffer one's is
	 * not: dynpf_run() asks bpf_dynptr_size(), 9 ns). Taken here, and hidden behind
	 * the fence, so the two packet pointers die at once: left to clang,
	 * they were spilled to the stack and kept to where the length is
	 * used, and their slots, reused later, told the verifier's states
	 * apart through the whole parse (with the 256-byte window, dynpf_xdp
	 * took 805k instructions without the fence, 600k with it).
	 */
	if (hook == DYNPF_HOOK_XDP) {
		len = ctx->data_end - ctx->data;
		dynpf_barrier_var(len);
	}
	/* Made here; in the lazy build, at each read (parsers/cursor.h). */
	if (!DYNPF_LAZY && bpf_dynptr_from_xdp(ctx, 0, &dp)) {
		dynpf_no_dynptr(ctx->ingress_ifindex, hook);
		return XDP_PASS;
	}
	if (DYNPF_STOPPED(DYNPF_STOP_DYNPTR))
		return XDP_PASS;
	v = dynpf_run(&dp, len, hook, ctx->ingress_ifindex, 0, ctx);
	if (!v)
		return XDP_PASS;
	return dynpf_act(v, XDP_PASS, XDP_DROP);
}

SEC("xdp")
int dynpf_xdp(struct xdp_md *ctx)
{
	return dynpf_xdp_common(ctx, DYNPF_HOOK_XDP);
}

/* Multi-buffer frames: the dynptr spans every fragment, slices copy across. */
SEC("xdp.frags")
int dynpf_xdp_frags(struct xdp_md *ctx)
{
	return dynpf_xdp_common(ctx, DYNPF_HOOK_XDP_FRAGS);
}

#endif /* !DYNPF_DP_SKB */

/* The TC programs: not in the lazy build of the XDP ones (their type may
 * not call bpf_dynptr_from_xdp()). */
#if !defined(DYNPF_DP_LAZY) || defined(DYNPF_DP_SKB)
static __always_inline int dynpf_tc_common(struct __sk_buff *skb, __u32 hook)
{
	struct bpf_dynptr dp;
	struct dynpf_verdict *v;
	__u32 vlan = 0;

	/* Made here; in the lazy build, at each read (parsers/cursor.h). */
	if (!DYNPF_LAZY && bpf_dynptr_from_skb(skb, 0, &dp)) {
		dynpf_no_dynptr(skb->ifindex, hook);
		return DYNPF_TC_NEXT;
	}
	/*
	 * Before TC ingress the kernel moves the outer VLAN tag into the skb
	 * (skb_vlan_untag(); a NIC with VLAN offload does it in hardware), and
	 * on egress a tag may still wait there to be inserted: either way it
	 * is the packet's first tag, though not in its bytes.
	 */
	if (skb->vlan_present)
		vlan = (__u32)dynpf_ntohs((__u16)skb->vlan_proto) << 16 | (skb->vlan_tci & 0xffff);
	v = dynpf_run(&dp, skb->len, hook, skb->ifindex, vlan, skb);
	if (!v)
		return DYNPF_TC_NEXT;
	if (v->flags & DYNPF_VF_MARK)
		skb->mark = v->mark;
	return dynpf_act(v, DYNPF_TC_NEXT, DYNPF_TC_SHOT);
}

SEC("tc")
int dynpf_tc_ingress(struct __sk_buff *skb)
{
	return dynpf_tc_common(skb, DYNPF_HOOK_TC_INGRESS);
}

SEC("tc")
int dynpf_tc_egress(struct __sk_buff *skb)
{
	return dynpf_tc_common(skb, DYNPF_HOOK_TC_EGRESS);
}
#endif /* the TC programs */
