/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The parse graph: which parser handles which protocol, and the walk that
 * chains them. Each parser returns the next protocol (DYNPF_P_NONE ends the
 * walk) or a negative DYNPF_E_*. This file is the one place that knows the
 * order of layers; a new protocol adds a case here and returns its own
 * successor from its parser.
 */
#ifndef DYNPF_PARSERS_GRAPH_H
#define DYNPF_PARSERS_GRAPH_H

#include "eth.h"
#include "arp.h"
#include "ip.h"
#include "tcp.h"
#include "udp.h"
#include "icmp.h"
#include "ip6ext.h"
#include "tlvstep.h"
#include "tunnel.h"
#include "decl.h"

/*
 * The common headers, inlined into the walk: every packet crosses a few of
 * them, and a call per layer costs more than their parsing (docs/bpf-notes.md).
 */
dynpf_inline int dynpf_dispatch_common(struct dynpf_cursor *c, struct dynpf_pkt *p, int proto)
{
	switch (proto) {
	case DYNPF_P_ETH:
		return dynpf_parse_eth(c, p);
	case DYNPF_P_VLAN:
	case DYNPF_P_QINQ:
		return dynpf_parse_vlan(c, p);
	case DYNPF_P_ARP:
		return dynpf_parse_arp(c, p);
	case DYNPF_P_IPV4:
		return dynpf_parse_ipv4(c, p);
	case DYNPF_P_IPV6:
		return dynpf_parse_ipv6(c, p);
	case DYNPF_P_TCP:
		return dynpf_parse_tcp(c, p);
	case DYNPF_P_UDP:
		return dynpf_parse_udp(c, p);
	case DYNPF_P_ICMP:
		return dynpf_parse_icmp(c, p);
	case DYNPF_P_ICMPV6:
		return dynpf_parse_icmpv6(c, p);
	}
	return DYNPF_P_NONE;
}

/*
 * The rest, each behind one global subprogram call (dynpf_layer_step): IPv6
 * extension-header chains inlined multiply the verifier's paths past its
 * budget, and they are rarer on the wire.
 */
dynpf_inline int dynpf_dispatch_rare(struct dynpf_cursor *c, struct dynpf_pkt *p, int proto)
{
	switch (proto) {
	case DYNPF_P_HOPOPTS:
		return dynpf_parse_hopopts(c, p);
	case DYNPF_P_ROUTING:
		return dynpf_parse_routing(c, p);
	case DYNPF_P_FRAGMENT:
		return dynpf_parse_fragment(c, p);
	case DYNPF_P_DSTOPTS:
		return dynpf_parse_dstopts(c, p);
	case DYNPF_P_AH:
		return dynpf_parse_ah(c, p);
	case DYNPF_P_ESP:
		return dynpf_parse_esp(c, p);
	case DYNPF_P_MPLS:
		return dynpf_parse_mpls(c, p);
	case DYNPF_P_GRE:
		return dynpf_parse_gre(c, p);
	case DYNPF_P_VXLAN:
		return dynpf_parse_vxlan(c, p);
	case DYNPF_P_GENEVE:
		return dynpf_parse_geneve(c, p);
	case DYNPF_P_GTPU:
		return dynpf_parse_gtpu(c, p);
	}
	return DYNPF_P_NONE;
}

/* Protocols parsed through dynpf_layer_step(). */
dynpf_inline int dynpf_is_rare(int proto)
{
	return (proto & 0xff) >= DYNPF_P_HOPOPTS;
}

dynpf_inline int dynpf_is_l4(int proto)
{
	return proto == DYNPF_P_TCP || proto == DYNPF_P_UDP || proto == DYNPF_P_ICMP ||
	       proto == DYNPF_P_ICMPV6;
}

/*
 * Parse one header and record it. On error the walk's outcome is written to
 * p->err*; the header is listed in layers[] only if its parser said its fixed
 * part was valid (c->keep_layer), so consumers can trust every listed layer.
 * rare (a constant at each use): 0 a common layer (dynpf_dispatch_common()),
 * 1 a rare one (dynpf_dispatch_rare()), 2 a declared protocol's
 * (dynpf_parse_decl()), which is no layer when it finds no declaration.
 */
dynpf_inline int dynpf_layer(struct dynpf_cursor *c, struct dynpf_pkt *p, int proto, const int rare)
{
	__u32 start = c->off, n = p->nlayers;
	__u64 at;
	int r = 0;

	c->err_off = start;
	c->keep_layer = 0;
	c->err_at = 0;
	if (rare == 2)
		c->decl_id = 0;
	if (proto & DYNPF_NEXT_INNER) {
		/* A tunnel's inner packet: the next stack, if there is room. */
		proto &= 0xff;
		if (c->skip & DYNPF_SKIP_INNER)
			return DYNPF_P_NONE; /* no rule looks at it */
		if (c->stack + 1 >= DYNPF_MAX_STACKS || c->stack + 1 >= c->max_stacks) {
			r = -DYNPF_E_DEPTH;
		} else {
			c->stack++;
			p->nstacks = c->stack + 1;
		}
	}
	if (r < 0)
		;
	else if (n >= DYNPF_MAX_LAYERS)
		r = -DYNPF_E_DEPTH;
	else if (rare == 2)
		r = dynpf_parse_decl(c, p);
	else if (rare)
		r = dynpf_dispatch_rare(c, p, proto);
	else
		r = dynpf_dispatch_common(c, p, proto);
	/* A declared protocol's layer that found no declaration is no layer. */
	if (rare == 2 && !c->decl_id)
		return r;
	if (r >= 0 || c->keep_layer) {
		if (n < DYNPF_MAX_LAYERS) {
			p->layers[n] = (struct dynpf_layer){
				.proto = proto,
				.off = start,
				.len = c->off - start,
				.stack = c->stack,
				.sub = rare == 2 ? c->decl_id - 1 : 0,
			};
			p->nlayers = n + 1;
		}
		if (dynpf_is_l4(proto))
			p->l4_payload_off = c->off;
	}
	if (r < 0) {
		p->err = -r;
		p->err_layer = n;
		p->err_proto = proto;
		p->err_off = c->err_off;
		/* Found here, but an earlier header's fault (dynpf_parse_fragment()). */
		at = c->err_at;
		dynpf_barrier_var(at); /* 64 bits, tested as used: a bound the verifier keeps */
		if (at && at <= n && at <= DYNPF_MAX_LAYERS) {
			p->err_layer = at - 1;
			p->err_proto = p->layers[at - 1].proto;
		}
	}
	return r;
}

/*
 * The cursor of a global subprogram of the walk: the caller's (its
 * position), over the same bytes and area. A global subprogram takes
 * pointers in structs as plain numbers, so the dynptr and the scratch area
 * come as arguments of their own; and the verifier does not track a spilled
 * dynptr argument, which clang spills: the cursor reads through a clone in
 * the subprogram's frame (dp). 0, or -1.
 */
#if defined(__bpf__)
typedef struct bpf_dynptr dynpf_clone_t;
#else
typedef __u8 dynpf_clone_t;
#endif

dynpf_inline int dynpf_step_cursor(struct dynpf_cursor *c, const struct dynpf_cursor *cur,
				   dynpf_src_t src, struct dynpf_area *area, dynpf_clone_t *dp)
{
	*c = *cur;
#if defined(__bpf__)
	if (bpf_dynptr_clone(src, dp))
		return -1;
	c->src = dp;
#else
	(void)dp;
	c->src = src;
#endif
	c->area = area;
	return 0;
}

#ifdef DYNPF_DP_LAZY
/*
 * The same where the dynptr is made lazily (DYNPF_DP_LAZY): no dynptr to
 * clone, the subprogram gets the context (a sixth argument is not allowed,
 * so each subprogram has a form of its own, *_lazy(), which the walk calls
 * instead); dp is made at once when make says so, else by the first read.
 */
dynpf_inline int dynpf_step_cursor_lazy(struct dynpf_cursor *c, const struct dynpf_cursor *cur,
					void *ctx, struct dynpf_area *area, dynpf_clone_t *dp,
					int make)
{
	*c = *cur;
	if (make && DYNPF_DP_MAKE(ctx, dp))
		return -1;
	c->src = dp;
	c->ctx = ctx;
	c->area = area;
	return 0;
}
#endif

/* A rare layer's subprogram, once its cursor is made (below). */
dynpf_inline int dynpf_layer_run(struct dynpf_cursor *c, struct dynpf_cursor *cur,
				 struct dynpf_pkt *p, int proto)
{
	int r = dynpf_layer(c, p, proto, 1);

	/*
	 * Rare layers come in runs (an IPv6 extension header chain, a tunnel
	 * header and its inner IPv6 chain): a second one in the same call
	 * saves a call and a clone (about 20 ns). Not a loop: its rounds'
	 * states differ (the cursor's offsets) and the verifier walks each.
	 */
	if (r > DYNPF_P_NONE && dynpf_is_rare(r))
		r = dynpf_layer(c, p, r, 1);
	cur->off = c->off;
	cur->end = c->end;
	cur->stack = c->stack;
	return r;
}

/*
 * One rare layer, as a global subprogram: the verifier checks its parser
 * once, against any offset, instead of once per path through the graph.
 * The cost is a call and a bpf_dynptr_clone() per such layer; the
 * cursor's position travels in cur (dynpf_step_cursor()).
 */
#ifndef DYNPF_DP_LAZY
DYNPF_SUBPROG int dynpf_layer_step(dynpf_src_t src, struct dynpf_area *area,
				   struct dynpf_cursor *cur, struct dynpf_pkt *p, int proto)
{
	struct dynpf_cursor c;
	dynpf_clone_t dp;

	if (!cur || !p || !area || dynpf_step_cursor(&c, cur, src, area, &dp))
		return -DYNPF_E_BAD_HDR;
	return dynpf_layer_run(&c, cur, p, proto);
}
#endif

#ifdef DYNPF_DP_LAZY
DYNPF_SUBPROG int dynpf_layer_step_lazy(void *ctx __arg_ctx, struct dynpf_area *area,
					struct dynpf_cursor *cur, struct dynpf_pkt *p, int proto)
{
	struct dynpf_cursor c;
	dynpf_clone_t dp;

	if (!cur || !p || !area || dynpf_step_cursor_lazy(&c, cur, ctx, area, &dp, 1))
		return -DYNPF_E_BAD_HDR;
	return dynpf_layer_run(&c, cur, p, proto);
}
#endif

/*
 * After the walk, the protocols declared at runtime (parsers/decl.h), when
 * some are declared and a rule needs them; the walk itself knows nothing of them, so
 * a packet parsed with no declaration pays one test, and the per-layer
 * paths are those of the walk without declarations.
 *
 * First those declared in built-in families' option areas: each walks every
 * area the walk listed (every layer that carries one: its family's walk
 * ran over it) into its own list. One layer a call, for each layer that
 * may carry an area (dynpf_decl_may_area()): a global subprogram with the
 * walk of each declaration inlined (one more call would take the BPF stack
 * past 512 bytes), and no loop over the layers (the walk loops, and the
 * verifier sees the two loops apart).
 */
dynpf_inline int dynpf_decl_area_run(struct dynpf_cursor *c, struct dynpf_area *area,
				     struct dynpf_pkt *p, __u32 i)
{
	const struct dynpf_proto_tab *tab;
	struct dynpf_tlv_it *it;
	__u32 family = 0, off = 0, len = 0;
	__u8 stack = 0;
	int abase;

	if (!dynpf_decl_area_of(c, p, i, &family, &off, &len, &stack) ||
	    !(c->decl & DYNPF_DECL_AREA(family & 7)))
		return 0;
	tab = dynpf_decl_tab(c);
	if (!tab)
		return 0;
	abase = dynpf_cur_fetch_area(c, off, len);
	if (abase < 0)
		return 0; /* the family's walk could not fetch it either */
	it = (struct dynpf_tlv_it *)area->it;
	dynpf_tlv_it_init(it, len, off);
	it->abase = abase;
	it->layer = i;
	it->stack = stack;
	dynpf_tlv_walk_decl_areas_in(area, it, p, tab, family);
	return 0;
}

#ifndef DYNPF_DP_LAZY
DYNPF_SUBPROG int dynpf_decl_area_step(dynpf_src_t src, struct dynpf_area *area,
				       const struct dynpf_cursor *cur, struct dynpf_pkt *p, __u32 i)
{
	struct dynpf_cursor c;
	dynpf_clone_t dp;

	if (!cur || !p || !area || dynpf_step_cursor(&c, cur, src, area, &dp))
		return 0;
	return dynpf_decl_area_run(&c, area, p, i);
}
#endif

#ifdef DYNPF_DP_LAZY
DYNPF_SUBPROG int dynpf_decl_area_step_lazy(void *ctx __arg_ctx, struct dynpf_area *area,
					    const struct dynpf_cursor *cur, struct dynpf_pkt *p,
					    __u32 i)
{
	struct dynpf_cursor c;
	dynpf_clone_t dp;

	if (!cur || !p || !area || dynpf_step_cursor_lazy(&c, cur, ctx, area, &dp, 0))
		return 0;
	return dynpf_decl_area_run(&c, area, p, i);
}
#endif

/*
 * Then the header of a protocol bound behind where the walk ended
 * (dynpf_decl_key_after()), if any, as one more layer: a global subprogram
 * of its own, called from the walk, for the same reason.
 */
dynpf_inline int dynpf_decl_run(struct dynpf_cursor *c, struct dynpf_pkt *p)
{
	c->decl_key = dynpf_decl_key_after(p, c->decl);
	if (!c->decl_key)
		return 0;
	return dynpf_layer(c, p, DYNPF_P_DECL, 2);
}

#ifndef DYNPF_DP_LAZY
DYNPF_SUBPROG int dynpf_decl_step(dynpf_src_t src, struct dynpf_area *area,
				  const struct dynpf_cursor *cur, struct dynpf_pkt *p)
{
	struct dynpf_cursor c;
	dynpf_clone_t dp;

	if (!cur || !p || !area || dynpf_step_cursor(&c, cur, src, area, &dp))
		return 0;
	return dynpf_decl_run(&c, p);
}
#endif

#ifdef DYNPF_DP_LAZY
DYNPF_SUBPROG int dynpf_decl_step_lazy(void *ctx __arg_ctx, struct dynpf_area *area,
				       const struct dynpf_cursor *cur, struct dynpf_pkt *p)
{
	struct dynpf_cursor c;
	dynpf_clone_t dp;

	if (!cur || !p || !area || dynpf_step_cursor_lazy(&c, cur, ctx, area, &dp, 0))
		return 0;
	return dynpf_decl_run(&c, p);
}

/*
 * A global subprogram of the walk in its form for the instance: the lazy
 * one's first argument is the context, the other's the dynptr; then the
 * cursor's pointers again, which the verifier forgets across the call.
 */
#define DYNPF_STEP_CALL(fn, ...) fn##_lazy(ctx, __VA_ARGS__)
#else
#define DYNPF_STEP_CALL(fn, ...) fn(src, __VA_ARGS__)
#endif
#ifdef DYNPF_DP_LAZY
#define DYNPF_STEP_AFTER(c) ((c)->src = src, (c)->area = area, (c)->ctx = ctx)
#else
#define DYNPF_STEP_AFTER(c) ((c)->src = src, (c)->area = area)
#endif

/*
 * Is next a TCP or UDP header of the inner stack that the cursor says no
 * rule needs (DYNPF_SKIP_INNER_TCP, _UDP: the rules need the inner stack
 * only for its TLVs, and none lies behind it)? Then the walk ends. Asked
 * in the loop's condition: there the verifier walks dynpf_xdp in 519k
 * instructions (562k before the test), the TC programs in 509k (513k);
 * at the end of the loop's body, 556k and 573k; in its common layers'
 * branch only, past 1M.
 */
dynpf_inline int dynpf_inner_l4_cut(const struct dynpf_cursor *c, int next)
{
	return c->stack && (c->skip & (DYNPF_SKIP_INNER_TCP | DYNPF_SKIP_INNER_UDP)) &&
	       ((next == DYNPF_P_TCP && (c->skip & DYNPF_SKIP_INNER_TCP)) ||
		(next == DYNPF_P_UDP && (c->skip & DYNPF_SKIP_INNER_UDP)));
}

/*
 * Walk the whole packet, one layer per round. The bound is the layer array:
 * a packet can never make the walk longer.
 */
dynpf_inline void dynpf_parse_packet(struct dynpf_cursor *c, struct dynpf_pkt *p)
{
	/* Kept apart from *c, which a rare layer's call overwrites. */
	struct dynpf_area *area = c->area;
	dynpf_src_t src = c->src;
#ifdef DYNPF_DP_LAZY
	void *ctx = c->ctx;
#endif
	__u32 i, k;
	int next;

	p->abi = DYNPF_ABI_VERSION;
	p->pkt_len = c->len;
	p->nlayers = 0;
	p->nstacks = 1;
	p->err = DYNPF_E_OK;
	p->err_layer = 0;
	p->err_proto = 0;
	p->err_off = 0;
	p->l4_payload_off = 0;
	dynpf_tlv_reset(p);
	/*
	 * The first two rounds, for the headers nearly every packet starts
	 * with, taken out of the loop with their protocol a constant: each
	 * is its parser inlined, without the dispatch. The loop goes on from
	 * the round they got to. Against the loop alone (bench --versus, 3
	 * runs): syn with no rules 1-8% faster, with 1 rule 1.5-4.5%, with
	 * 10,000 0-3%; taking TCP and UDP out too made tcp-opt40 4-7%
	 * slower. The round counter goes on from 1 or 2: a packet's walk
	 * has the rounds it had in the loop, and the same end.
	 */
	next = dynpf_layer(c, p, DYNPF_P_ETH, 0);
	i = 1;
	if (next == DYNPF_P_IPV4) {
		next = dynpf_layer(c, p, DYNPF_P_IPV4, 0);
		i = 2;
	} else if (next == DYNPF_P_IPV6) {
		next = dynpf_layer(c, p, DYNPF_P_IPV6, 0);
		i = 2;
	}
	/* One more round than there are layers, so an endless chain ends in
	 * DYNPF_E_DEPTH rather than silently. */
	for (; next > DYNPF_P_NONE && i <= DYNPF_MAX_LAYERS && !dynpf_inner_l4_cut(c, next); i++) {
		if (dynpf_is_rare(next)) {
			next = DYNPF_STEP_CALL(dynpf_layer_step, area, c, p, next);
			/* The call may have written *c: the verifier forgets its pointers. */
			DYNPF_STEP_AFTER(c);
		} else {
			next = dynpf_layer(c, p, next, 0);
		}
	}
	if (!c->decl)
		return;
	/* Declared protocols (above): the calls may write *c, as the layer step's. */
	for (k = 0; k < DYNPF_MAX_LAYERS && (c->decl >> 8); k++) {
		dynpf_cond_break;
		if (k >= p->nlayers)
			break;
		if (!dynpf_decl_may_area(p->layers[k].proto))
			continue;
		DYNPF_STEP_CALL(dynpf_decl_area_step, area, c, p, k);
		DYNPF_STEP_AFTER(c);
	}
	if (c->decl & 0xff) {
		DYNPF_STEP_CALL(dynpf_decl_step, area, c, p);
		DYNPF_STEP_AFTER(c);
	}
}

#endif /* DYNPF_PARSERS_GRAPH_H */
