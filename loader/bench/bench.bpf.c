// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Reference programs for `dynpf bench`, loaded next to the real dynpf ones:
 *
 *  - bench_empty_*: return at once. Their time is the floor of one
 *    BPF_PROG_TEST_RUN repetition (program call, ctx setup, timer).
 *
 *  - bench_direct_*: the same headers dynpf parses, read the classic way,
 *    through data/data_end and a header cursor (xdp-tools'
 *    headers/xdp/parsing_helpers.h), with no kfunc in the path (only
 *    xdp.frags calls one helper, bpf_xdp_get_buff_len(), for the length of
 *    all fragments, which dynpf gets from bpf_dynptr_size()).
 *
 * The direct parser is kept honest: it does the work dynpf_run() does, not
 * less. It looks up a per-CPU struct dynpf_pkt and a per-CPU stats slot,
 * fills the same layer list, L2/L3/L4 fields and TLV records (every TCP option
 * walked, NOP and EOL included; MSS, window scale, SACK-permitted, SACK blocks
 * and timestamps decoded), honours the IP datagram's end like the cursor does,
 * and counts the packet. `dynpf bench` compares its result with dynpf's on
 * every shape before timing: if they differ, the comparison is not fair and
 * the bench says so.
 *
 * It also walks IPv6 extension headers (hop-by-hop and destination options
 * with their options, RA/Jumbo/unknown-action decoded; routing, SRH segments
 * skipped and TLVs walked, HMAC decoded; fragment; AH; ESP) and VXLAN and
 * Geneve (options walked) with the inner stack of headers, filling
 * st[].ip6, st[].tun and the TLV lists as dynpf does. The IPv6 chain, each of
 * those TLV areas and the inner stack are global subprograms (a call each,
 * as dynpf's rare layers and TLV areas are); the common shapes make no call.
 *
 * What it does not do: read across XDP fragments (direct access sees only the
 * linear part; the bench shapes keep every header in it), parse ARP/ICMP/
 * ICMPv6, IPv4 options (skipped, not walked), GRE, GTP-U, MPLS or IP-in-IP,
 * or honour dynpf's max_ext/max_stacks settings (it uses their defaults, 8
 * and 2, which the bench loads dynpf with).
 *
 *  - bench_prim_*: the dynptr building blocks one at a time (constructor,
 *    slice, clone, clone + adjust, read), for the primitives table of
 *    `dynpf bench`; see their section below.
 */
#include "dynpf/pkt.h"
#include "common.h"
/* dynpf_ip6chain_note() (ip6ext.h): the RFC 8200 flags, as dynpf sets them */
#include "ip6ext.h"
#include "tlvstep.h"

/* TCP option kinds (parsers/tcp.h has them too, with the dynptr walker). */
#define BENCH_TCPOPT_EOL 0
#define BENCH_TCPOPT_NOP 1
#define BENCH_TCPOPT_MSS 2
#define BENCH_TCPOPT_WSCALE 3
#define BENCH_TCPOPT_SACK_PERM 4
#define BENCH_TCPOPT_SACK 5
#define BENCH_TCPOPT_TS 8

/* TC_ACT_UNSPEC, what dynpf's TC programs return. */
#define BENCH_TC_NEXT (-1)

char LICENSE[] SEC("license") = "Dual BSD/GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct dynpf_pkt);
} bench_scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, DYNPF_HOOK_MAX);
	__type(key, __u32);
	__type(value, struct dynpf_stats);
} bench_stats SEC(".maps");

/* ---- empty programs: the floor ---------------------------------------- */

SEC("xdp")
int bench_empty_xdp(struct xdp_md *ctx)
{
	return XDP_PASS;
}

SEC("xdp.frags")
int bench_empty_xdp_frags(struct xdp_md *ctx)
{
	return XDP_PASS;
}

SEC("tc")
int bench_empty_tc(struct __sk_buff *skb)
{
	return BENCH_TC_NEXT;
}

/* ---- the direct-packet-access parser ----------------------------------- */

/*
 * xdp-tools' cursor, plus the packet's start (for offsets in the result), its
 * logical end (the packet length, lowered to the end of the IP datagram once
 * an IP header is parsed) and the stack of headers being parsed (0 outer, 1 a
 * tunnel's inner packet). data_end bounds every access for the verifier; lend
 * bounds the protocol, like dynpf's cursor does.
 */
struct hdr_cursor {
	void *pos;
	void *data;
	void *data_end;
	__u32 lend;
	__u8 stack;
	__u8 tc;   /* constant: ctx is a struct __sk_buff, not a struct xdp_md */
	void *ctx; /* for the global subprograms (below), which take no packet pointer */
};

/* The cursor as a global subprogram takes it: offsets, not pointers. */
struct bench_cur {
	__u32 off;
	__u32 lend;
	__u8 stack;
	/* bench_tlv_*(): the area, and family | layer << 8 | proto << 16 | ext << 24 */
	__u32 base;
	__u32 len;
	__u32 args;
};

static __always_inline void cur_save(const struct hdr_cursor *nh, struct bench_cur *c)
{
	c->off = nh->pos - nh->data;
	c->lend = nh->lend;
	c->stack = nh->stack;
}


/*
 * Offsets into the packet are masked with this before a pointer is made of
 * them, so the verifier sees every variable step bounded (the linear part of
 * a test-run packet is below 4 KB).
 */
#define BENCH_OFF_MASK 0x3fff

static __always_inline __u32 cur_off(const struct hdr_cursor *nh)
{
	return nh->pos - nh->data;
}

/* Move the cursor to packet offset off. */
static __always_inline void cur_set(struct hdr_cursor *nh, __u32 off)
{
	nh->pos = nh->data + (off & BENCH_OFF_MASK);
}

/* n bytes at the cursor, within the logical end? */
static __always_inline int cur_need(const struct hdr_cursor *nh, __u32 n)
{
	__u32 off = cur_off(nh);

	return off <= nh->lend && n <= nh->lend - off;
}

static __always_inline struct dynpf_stack *cur_st(const struct hdr_cursor *nh,
						  struct dynpf_pkt *p)
{
	return &p->st[nh->stack & (DYNPF_MAX_STACKS - 1)];
}

static __always_inline void add_layer(const struct hdr_cursor *nh, struct dynpf_pkt *p,
				      __u16 proto, __u32 off, __u32 len)
{
	__u32 n = p->nlayers;

	if (n >= DYNPF_MAX_LAYERS)
		return;
	p->layers[n] = (struct dynpf_layer){
		.proto = proto, .off = off, .len = len, .stack = nh->stack
	};
	p->nlayers = n + 1;
}

static __always_inline void set_err(struct dynpf_pkt *p, int err, __u16 proto, __u32 off)
{
	p->err = err;
	p->err_layer = p->nlayers;
	p->err_proto = proto;
	p->err_off = off;
}

static __always_inline int next_from_ethertype(__u16 proto)
{
	switch (proto) {
	case DYNPF_ETH_P_8021Q:
		return DYNPF_P_VLAN;
	case DYNPF_ETH_P_8021AD:
		return DYNPF_P_QINQ;
	case DYNPF_ETH_P_IPV4:
		return DYNPF_P_IPV4;
	case DYNPF_ETH_P_IPV6:
		return DYNPF_P_IPV6;
	}
	return DYNPF_P_NONE;
}

/* IPv6 extension header protocol numbers (RFC 8200). */
#define BENCH_IPPROTO_HOPOPTS 0
#define BENCH_IPPROTO_ROUTING 43
#define BENCH_IPPROTO_FRAGMENT 44
#define BENCH_IPPROTO_ESP 50
#define BENCH_IPPROTO_AH 51
#define BENCH_IPPROTO_DSTOPTS 60

/* What follows an IP header or an IPv6 extension header (v6: one of those). */
static __always_inline int next_from_ipproto(__u8 proto, int v6)
{
	if (v6) {
		switch (proto) {
		case BENCH_IPPROTO_HOPOPTS:
			return DYNPF_P_HOPOPTS;
		case BENCH_IPPROTO_ROUTING:
			return DYNPF_P_ROUTING;
		case BENCH_IPPROTO_FRAGMENT:
			return DYNPF_P_FRAGMENT;
		case BENCH_IPPROTO_DSTOPTS:
			return DYNPF_P_DSTOPTS;
		case BENCH_IPPROTO_AH:
			return DYNPF_P_AH;
		case BENCH_IPPROTO_ESP:
			return DYNPF_P_ESP;
		}
	}
	switch (proto) {
	case DYNPF_IPPROTO_TCP:
		return DYNPF_P_TCP;
	case DYNPF_IPPROTO_UDP:
		return DYNPF_P_UDP;
	}
	return DYNPF_P_NONE;
}

/* Ethernet, then up to DYNPF_MAX_VLANS 802.1Q/802.1ad tags. */
static __always_inline int parse_eth(struct hdr_cursor *nh, struct dynpf_pkt *p)
{
	struct dynpf_l2 *l2 = &cur_st(nh, p)->l2;
	struct dynpf_ethhdr *eth = nh->pos;
	struct dynpf_vlanhdr *vh;
	__u32 off = cur_off(nh);
	__u16 proto;
	int next, i;

	if ((void *)(eth + 1) > nh->data_end || !cur_need(nh, sizeof(*eth))) {
		set_err(p, DYNPF_E_TRUNCATED, DYNPF_P_ETH, off);
		return -1;
	}
	proto = dynpf_ntohs(eth->proto);
	*l2 = (struct dynpf_l2){ .ethertype = proto };
	__builtin_memcpy(l2->dst, eth->dst, 6);
	__builtin_memcpy(l2->src, eth->src, 6);
	add_layer(nh, p, DYNPF_P_ETH, off, sizeof(*eth));
	nh->pos = eth + 1;
	next = next_from_ethertype(proto);

	for (i = 0; i < DYNPF_MAX_VLANS; i++) {
		if (next != DYNPF_P_VLAN && next != DYNPF_P_QINQ)
			return next;
		vh = nh->pos;
		if ((void *)(vh + 1) > nh->data_end || !cur_need(nh, sizeof(*vh))) {
			set_err(p, DYNPF_E_TRUNCATED, next, cur_off(nh));
			return -1;
		}
		proto = dynpf_ntohs(vh->proto);
		l2->vlan_tpid[i] = l2->ethertype;
		l2->vlan_tci[i] = dynpf_ntohs(vh->tci);
		l2->nvlan = i + 1;
		l2->ethertype = proto;
		add_layer(nh, p, next, cur_off(nh), sizeof(*vh));
		nh->pos = vh + 1;
		next = next_from_ethertype(proto);
	}
	if (next == DYNPF_P_VLAN || next == DYNPF_P_QINQ) {
		set_err(p, DYNPF_E_DEPTH, next, cur_off(nh));
		return -1;
	}
	return next;
}

static __always_inline int parse_ipv4(struct hdr_cursor *nh, struct dynpf_pkt *p)
{
	struct dynpf_stack *st = cur_st(nh, p);
	struct dynpf_l3 *l3 = &st->l3;
	struct dynpf_iphdr *iph = nh->pos;
	__u32 off = cur_off(nh), hlen, tot_len;
	__u16 frag;

	if ((void *)(iph + 1) > nh->data_end || !cur_need(nh, sizeof(*iph))) {
		set_err(p, DYNPF_E_TRUNCATED, DYNPF_P_IPV4, off);
		return -1;
	}
	if (iph->ver_ihl >> 4 != 4) {
		set_err(p, DYNPF_E_BAD_VERSION, DYNPF_P_IPV4, off);
		return -1;
	}
	hlen = (iph->ver_ihl & 0xf) * 4;
	tot_len = dynpf_ntohs(iph->tot_len);
	if (hlen < sizeof(*iph) || tot_len < hlen) {
		set_err(p, DYNPF_E_BAD_LEN, DYNPF_P_IPV4, off);
		return -1;
	}
	if (!cur_need(nh, tot_len)) {
		set_err(p, DYNPF_E_TRUNCATED, DYNPF_P_IPV4, off);
		return -1;
	}
	frag = dynpf_ntohs(iph->frag_off);
	*l3 = (struct dynpf_l3){
		.version = 4,
		.proto = iph->proto,
		.ttl = iph->ttl,
		.tos = iph->tos,
		.tot_len = tot_len,
		.id = dynpf_ntohs(iph->id),
		.frag_off = frag & DYNPF_IP_OFFMASK,
		.hdr_len = hlen,
	};
	__builtin_memcpy(l3->saddr, iph->saddr, 4);
	__builtin_memcpy(l3->daddr, iph->daddr, 4);
	if (frag & DYNPF_IP_DF)
		l3->frag |= DYNPF_FRAG_DF;
	if (frag & DYNPF_IP_MF)
		l3->frag |= DYNPF_FRAG_MF;
	if (frag & (DYNPF_IP_MF | DYNPF_IP_OFFMASK))
		l3->frag |= DYNPF_FRAG_IS_FRAG;
	st->ip4opt = (struct dynpf_ipv4opt){};
	add_layer(nh, p, DYNPF_P_IPV4, off, hlen);
	nh->lend = off + tot_len;
	/* hlen <= 60: a bounded step, checked against data_end by the next header. */
	nh->pos += hlen & 0x3c;
	if (frag & DYNPF_IP_OFFMASK) {
		l3->frag |= DYNPF_FRAG_NONFIRST;
		return DYNPF_P_NONE;
	}
	return next_from_ipproto(iph->proto, 0);
}

static __always_inline int parse_ipv6(struct hdr_cursor *nh, struct dynpf_pkt *p)
{
	struct dynpf_stack *st = cur_st(nh, p);
	struct dynpf_l3 *l3 = &st->l3;
	struct dynpf_ipv6hdr *ip6h = nh->pos;
	__u32 off = cur_off(nh), vtf, plen;

	if ((void *)(ip6h + 1) > nh->data_end || !cur_need(nh, sizeof(*ip6h))) {
		set_err(p, DYNPF_E_TRUNCATED, DYNPF_P_IPV6, off);
		return -1;
	}
	vtf = dynpf_ntohl(ip6h->ver_tc_flow);
	if (vtf >> 28 != 6) {
		set_err(p, DYNPF_E_BAD_VERSION, DYNPF_P_IPV6, off);
		return -1;
	}
	plen = dynpf_ntohs(ip6h->payload_len);
	if (!cur_need(nh, sizeof(*ip6h) + plen)) {
		set_err(p, DYNPF_E_TRUNCATED, DYNPF_P_IPV6, off);
		return -1;
	}
	*l3 = (struct dynpf_l3){
		.version = 6,
		.proto = ip6h->nexthdr,
		.ttl = ip6h->hop_limit,
		.tos = (vtf >> 20) & 0xff,
		.tot_len = plen,
		.hdr_len = sizeof(*ip6h),
		.flow_label = vtf & 0xfffff,
	};
	__builtin_memcpy(l3->saddr, ip6h->saddr, 16);
	__builtin_memcpy(l3->daddr, ip6h->daddr, 16);
	st->ip6.n = 0;
	st->ip6.flags = 0;
	st->ip6.seen = 0;
	add_layer(nh, p, DYNPF_P_IPV6, off, sizeof(*ip6h));
	/* Payload length 0 with hop-by-hop may be a jumbogram: keep the end. */
	if (plen || ip6h->nexthdr != 0)
		nh->lend = off + sizeof(*ip6h) + plen;
	nh->pos = ip6h + 1;
	return next_from_ipproto(ip6h->nexthdr, 1);
}

/* UDP tunnels by their IANA destination ports, as dynpf's UDP parser. */
#define BENCH_PORT_VXLAN 4789
#define BENCH_PORT_GENEVE 6081

static __always_inline int parse_udp(struct hdr_cursor *nh, struct dynpf_pkt *p)
{
	struct dynpf_stack *st = cur_st(nh, p);
	struct dynpf_l4 *l4 = &st->l4;
	struct dynpf_udphdr *uh = nh->pos;
	__u32 off = cur_off(nh), ulen;

	if ((void *)(uh + 1) > nh->data_end || !cur_need(nh, sizeof(*uh))) {
		set_err(p, DYNPF_E_TRUNCATED, DYNPF_P_UDP, off);
		return -1;
	}
	ulen = dynpf_ntohs(uh->len);
	if (ulen < sizeof(*uh)) {
		set_err(p, DYNPF_E_BAD_LEN, DYNPF_P_UDP, off);
		return -1;
	}
	if (!(st->l3.frag & DYNPF_FRAG_IS_FRAG) && !cur_need(nh, ulen)) {
		set_err(p, DYNPF_E_TRUNCATED, DYNPF_P_UDP, off);
		return -1;
	}
	*l4 = (struct dynpf_l4){
		.sport = dynpf_ntohs(uh->sport),
		.dport = dynpf_ntohs(uh->dport),
		.ulen = ulen,
		.hdr_len = sizeof(*uh),
	};
	add_layer(nh, p, DYNPF_P_UDP, off, sizeof(*uh));
	p->l4_payload_off = off + sizeof(*uh);
	nh->pos = uh + 1;
	switch (l4->dport) {
	case BENCH_PORT_VXLAN:
		return DYNPF_P_VXLAN;
	case BENCH_PORT_GENEVE:
		return DYNPF_P_GENEVE;
	}
	return DYNPF_P_NONE;
}

/* Record one TLV of a family, as dynpf_tlv_record() does. */
static __always_inline void tlv_record(struct dynpf_pkt *p, __u8 family, __u32 type, __u32 len,
				       __u32 off, __u8 layer)
{
	struct dynpf_tlv_list *l;
	__u8 t8 = type & 0xff;
	__u32 n;

	if (family >= DYNPF_TLV_NFAM)
		return;
	/* Index with the checked value, not one clang computed before the check. */
	dynpf_barrier_var(family);
	if (family >= DYNPF_TLV_NFAM)
		return;
	l = &p->tlv[family];
	n = l->n;
	l->seen[t8 >> 6] |= 1ULL << (t8 & 63);
	if (l->count < 255)
		l->count++;
	if (n >= DYNPF_MAX_TLVS) {
		l->overflow = 1;
		return;
	}
	l->ent[n] = (struct dynpf_tlv){
		.type = type,
		.len = len,
		.off = off,
		.family = family,
		.layer = layer,
	};
	l->n = n + 1;
}

static __always_inline void tcp_opt_record(struct dynpf_pkt *p, __u8 kind, __u32 len,
					   __u32 off, __u8 layer)
{
	tlv_record(p, DYNPF_TLV_TCP_OPT, kind, len, off, layer);
}

/*
 * Decode the options dynpf decodes. o points at the option's kind byte and
 * len is its length, already checked against the option area; every byte
 * read is checked against data_end here, the classic way.
 */
static __always_inline void tcp_opt_decode(struct dynpf_l4 *l4, const __u8 *o, __u32 len,
					   const void *data_end)
{
	__u32 i, n;

	switch (o[0]) {
	case BENCH_TCPOPT_MSS:
		if (len != 4 || (const void *)(o + 4) > data_end)
			return;
		l4->mss = dynpf_get_be16(o + 2);
		l4->opts |= DYNPF_TCPO_MSS;
		return;
	case BENCH_TCPOPT_WSCALE:
		if (len != 3 || (const void *)(o + 3) > data_end)
			return;
		l4->wscale = o[2];
		l4->opts |= DYNPF_TCPO_WSCALE;
		return;
	case BENCH_TCPOPT_SACK_PERM:
		if (len == 2)
			l4->opts |= DYNPF_TCPO_SACK_PERM;
		return;
	case BENCH_TCPOPT_SACK:
		if (len < 10 || (len - 2) % 8)
			return;
		n = (len - 2) / 8;
		for (i = 0; i < DYNPF_MAX_SACK && i < n; i++) {
			const __u8 *b = o + 2 + 8 * i;

			if ((const void *)(b + 8) > data_end)
				break;
			l4->sack[i][0] = dynpf_get_be32(b);
			l4->sack[i][1] = dynpf_get_be32(b + 4);
		}
		l4->nsack = i;
		l4->opts |= DYNPF_TCPO_SACK;
		return;
	case BENCH_TCPOPT_TS:
		if (len != 10 || (const void *)(o + 10) > data_end)
			return;
		l4->ts_val = dynpf_get_be32(o + 2);
		l4->ts_ecr = dynpf_get_be32(o + 6);
		l4->opts |= DYNPF_TCPO_TS;
		return;
	}
}

/* Per-CPU state of the walks the verifier must not track (see tlv_walk()). */
struct bench_walk {
	__u32 steps; /* TLVs walked in the current area */
	__u32 zero;  /* never written: 0, which the verifier cannot know */
	/* The cursors handed to the global subprograms, one per call depth: in
	 * the map, not on the 512-byte stack their frames share. */
	struct bench_cur cur[3];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bench_walk);
} bench_walk SEC(".maps");

/*
 * Walk the olen (<= 40) option bytes that follow the TCP header th, option
 * by option, in place: every option's bytes are checked against data_end
 * before they are read, like the kernel selftest
 * progs/test_parse_tcp_hdr_opt.c. 0, or -1 with p->err set.
 *
 * A may_goto loop (every round moves pos on, so 40 rounds at most): pos
 * starts from a value the verifier does not know and is masked each round,
 * so every round looks the same to it and it prunes them, however many
 * paths (extension header chains, tunnels) lead here. A plain bounded loop
 * is checked once per round per path: past its one-million-instruction
 * budget once IPv6 chains and tunnels reach it (measured).
 */
static __always_inline int tcp_opts_walk(struct hdr_cursor *nh, struct dynpf_pkt *p,
					 struct bench_walk *w, __u8 *th, __u32 olen, __u8 layer)
{
	__u32 base = (void *)th - nh->data + sizeof(struct dynpf_tcphdr);
	__u8 *opts = th + sizeof(struct dynpf_tcphdr);
	struct dynpf_l4 *l4 = &cur_st(nh, p)->l4;
	__u64 pos = w->zero, len;
	__u8 *o;
	__u8 kind;

	for (;;) {
		dynpf_cond_break;
		dynpf_barrier_var(pos);
		pos &= 0x3f;
		if (pos >= olen)
			break;
		o = opts + pos;
		if ((void *)(o + 1) > nh->data_end)
			goto bad;
		kind = o[0];
		if (kind == BENCH_TCPOPT_EOL) {
			tcp_opt_record(p, kind, 1, base + pos, layer);
			break;
		}
		if (kind == BENCH_TCPOPT_NOP) {
			tcp_opt_record(p, kind, 1, base + pos, layer);
			pos++;
			continue;
		}
		if (pos + 2 > olen || (void *)(o + 2) > nh->data_end)
			goto bad;
		len = o[1];
		if (len < 2 || len > olen - pos)
			goto bad;
		tcp_opt_record(p, kind, len, base + pos, layer);
		tcp_opt_decode(l4, o, len, nh->data_end);
		pos += len;
	}
	return 0;
bad:
	/* The TCP header itself was valid: it stays listed, like dynpf's. */
	set_err(p, DYNPF_E_TLV_LEN, DYNPF_P_TCP, base + pos);
	p->err_layer = layer;
	return -1;
}

static __always_inline int parse_tcp(struct hdr_cursor *nh, struct dynpf_pkt *p,
				     struct bench_walk *w)
{
	struct dynpf_l4 *l4 = &cur_st(nh, p)->l4;
	struct dynpf_tcphdr *th = nh->pos;
	__u32 off = cur_off(nh), doff;
	__u8 layer = p->nlayers;
	int r = 0;

	if ((void *)(th + 1) > nh->data_end || !cur_need(nh, sizeof(*th))) {
		set_err(p, DYNPF_E_TRUNCATED, DYNPF_P_TCP, off);
		return -1;
	}
	doff = (th->doff_res >> 4) * 4;
	if (doff < sizeof(*th)) {
		set_err(p, DYNPF_E_BAD_LEN, DYNPF_P_TCP, off);
		return -1;
	}
	if (!cur_need(nh, doff)) {
		set_err(p, DYNPF_E_TRUNCATED, DYNPF_P_TCP, off);
		return -1;
	}
	*l4 = (struct dynpf_l4){
		.sport = dynpf_ntohs(th->sport),
		.dport = dynpf_ntohs(th->dport),
		.seq = dynpf_ntohl(th->seq),
		.ack = dynpf_ntohl(th->ack),
		.window = dynpf_ntohs(th->window),
		.flags = th->flags,
		.hdr_len = doff,
	};
	add_layer(nh, p, DYNPF_P_TCP, off, doff);
	p->l4_payload_off = off + doff;
	if (doff > sizeof(*th))
		r = tcp_opts_walk(nh, p, w, (__u8 *)th, doff - sizeof(*th), layer);
	nh->pos = (__u8 *)th + (doff & 0x3c);
	return r < 0 ? r : DYNPF_P_NONE;
}

/*
 * The other TLV areas: IPv6 hop-by-hop and destination options and SRH TLVs
 * (type(1) length(1) data; the length excludes the 2-byte header; type 0 a
 * lone pad byte), and Geneve options (class(2) type(1) length(1): low 5
 * bits, 4-byte words after the header; type recorded as class << 8 | type).
 * The same checks and records as dynpf_tlv_next() with dynpf_ip6_opt_desc
 * and dynpf_geneve_opt_desc, and the same decoders (dynpf_ip6_opt_decode(),
 * dynpf_srh_tlv_decode(); Geneve options are only listed), reading in place.
 */
#define BENCH_IP6OPT_PAD1 0
#define BENCH_IP6OPT_PADN 1
#define BENCH_IP6OPT_RA 5
#define BENCH_IP6OPT_JUMBO 0xc2
#define BENCH_SRH_TLV_HMAC 5
/* TLVs per area; more ends the walk (parsers/tlv.h's DYNPF_TLV_MAX_STEPS). */
#define BENCH_TLV_MAX_STEPS 128

/*
 * The IPv6 chain, the TLV areas and a tunnel's inner stack are global
 * subprograms, one per context type: the verifier checks each once, not once
 * per path that reaches it (inlined, the paths through chains and tunnels
 * exceed its one-million-instruction budget, measured). dynpf's TLV walk and
 * rare layers are global subprograms too. A call takes no packet pointer:
 * the callee reads data/data_end from the context and the cursor travels as
 * offsets (struct bench_cur). The common shapes (eth/IP/TCP|UDP) make none.
 */
struct bench_walk;
__noinline int bench_tlv_xdp(struct xdp_md *ctx, struct dynpf_pkt *p, struct bench_walk *w,
			     struct bench_cur *c);
__noinline int bench_tlv_tc(struct __sk_buff *ctx, struct dynpf_pkt *p, struct bench_walk *w,
			    struct bench_cur *c);
__noinline int bench_chain_xdp(struct xdp_md *ctx, struct dynpf_pkt *p, struct bench_walk *w,
			       struct bench_cur *c);
__noinline int bench_chain_tc(struct __sk_buff *ctx, struct dynpf_pkt *p, struct bench_walk *w,
			      struct bench_cur *c);
__noinline int bench_inner_xdp(struct xdp_md *ctx, struct dynpf_pkt *p, struct bench_walk *w,
			       struct bench_cur *c, int next);
__noinline int bench_inner_tc(struct __sk_buff *ctx, struct dynpf_pkt *p, struct bench_walk *w,
			      struct bench_cur *c, int next);

/* args of bench_tlv_*(): family, layer, proto, ext index (0xff: none). */
#define BENCH_TLV_ARGS(family, layer, proto, ext)                              \
	((__u32)(family) | (__u32)(layer) << 8 | (__u32)(proto) << 16 | (__u32)(ext) << 24)

static __always_inline int call_tlv(struct hdr_cursor *nh, struct dynpf_pkt *p,
				    struct bench_walk *w, __u8 family, __u32 base, __u32 len,
				    __u8 layer, __u8 proto, __u8 ext)
{
	struct bench_cur *c = &w->cur[2];

	cur_save(nh, c);
	c->base = base;
	c->len = len;
	c->args = BENCH_TLV_ARGS(family, layer, proto, ext);
	if (nh->tc)
		return bench_tlv_tc(nh->ctx, p, w, c);
	return bench_tlv_xdp(nh->ctx, p, w, c);
}

static __always_inline int call_chain(struct hdr_cursor *nh, struct dynpf_pkt *p,
				      struct bench_walk *w)
{
	struct bench_cur *c = &w->cur[1];
	int r;

	cur_save(nh, c);
	if (nh->tc)
		r = bench_chain_tc(nh->ctx, p, w, c);
	else
		r = bench_chain_xdp(nh->ctx, p, w, c);
	cur_set(nh, c->off);
	nh->lend = c->lend;
	return r;
}

static __always_inline void ip6_opt_decode(struct dynpf_ext *e, const __u8 *o, __u32 type,
					   __u32 len, const void *data_end)
{
	switch (type) {
	case BENCH_IP6OPT_PAD1:
	case BENCH_IP6OPT_PADN:
		return;
	case BENCH_IP6OPT_RA:
		if (len == 4 && (const void *)(o + 4) <= data_end) {
			e->ra = dynpf_get_be16(o + 2);
			e->flags |= DYNPF_EXTF_RA;
		}
		return;
	case BENCH_IP6OPT_JUMBO:
		if (len == 6 && (const void *)(o + 6) <= data_end) {
			e->jumbo = dynpf_get_be32(o + 2);
			e->flags |= DYNPF_EXTF_JUMBO;
		}
		return;
	}
	/* The two high bits say what a node that does not know it must do. */
	e->unknown_act |= 1 << ((type >> 6) & 3);
}

static __always_inline void srh_tlv_decode(struct dynpf_ext *e, const __u8 *o, __u32 type,
					   __u32 len, const void *data_end)
{
	if (type != BENCH_SRH_TLV_HMAC || len < 8 || (const void *)(o + 8) > data_end)
		return;
	e->flags |= DYNPF_EXTF_HMAC;
	if (o[2] & 0x80)
		e->flags |= DYNPF_EXTF_HMAC_D;
	else
		e->flags &= ~DYNPF_EXTF_HMAC_D;
	e->id = dynpf_get_be32(o + 4);
}

/*
 * Walk the len-byte area at packet offset base, of family (IPv6 options, SRH
 * TLVs or Geneve options), carried by layer; e is its extension header's
 * entry (NULL for Geneve). Every TLV's bytes are checked against data_end
 * before they are read. A may_goto loop, like dynpf's walk: pos is masked
 * each round and the step count (DYNPF_TLV_MAX_STEPS per area, as dynpf's)
 * lives in a map value, so the rounds look alike to the verifier and it
 * prunes them. 0, or -1 with p->err set.
 */
static __always_inline int tlv_walk(struct hdr_cursor *nh, struct dynpf_pkt *p,
				    struct bench_walk *w, __u8 family, __u32 base, __u32 len,
				    __u8 layer, __u16 proto, struct dynpf_ext *e)
{
	__u64 pos = w->zero, type, tlen;
	int geneve = family == DYNPF_TLV_GENEVE_OPT, err = DYNPF_E_TLV_LEN;
	__u8 *o;

	w->steps = 0;
	for (;;) {
		dynpf_cond_break;
		/* An area is at most 2048 bytes (IPv6 options): so is pos. */
		dynpf_barrier_var(pos);
		pos &= 0xfff;
		if (pos >= len)
			return 0;
		if (w->steps++ >= BENCH_TLV_MAX_STEPS) {
			err = DYNPF_E_TLV_COUNT;
			goto bad;
		}
		o = nh->data + ((base + pos) & BENCH_OFF_MASK);
		if ((void *)(o + 4) > nh->data_end) {
			/* Fewer than 4 bytes left in the linear part: one at a time. */
			if ((void *)(o + 1) > nh->data_end)
				goto bad;
			if (!geneve && o[0] == BENCH_IP6OPT_PAD1) {
				tlv_record(p, family, 0, 1, base + pos, layer);
				pos++;
				continue;
			}
			if (geneve || (void *)(o + 2) > nh->data_end || pos + 2 > len)
				goto bad;
			tlen = (__u32)o[1] + 2;
			if (tlen > len - pos)
				goto bad;
			tlv_record(p, family, o[0], tlen, base + pos, layer);
			if (e && family != DYNPF_TLV_SRH_TLV)
				ip6_opt_decode(e, o, o[0], tlen, nh->data_end);
			pos += tlen;
			continue;
		}
		if (geneve) {
			if (pos + 4 > len)
				goto bad;
			type = (__u32)o[0] << 16 | (__u32)o[1] << 8 | o[2];
			tlen = (o[3] & 0x1f) * 4 + 4;
		} else {
			type = o[0];
			if (type == BENCH_IP6OPT_PAD1) {
				tlv_record(p, family, 0, 1, base + pos, layer);
				pos++;
				continue;
			}
			if (pos + 2 > len)
				goto bad;
			tlen = (__u32)o[1] + 2;
		}
		if (tlen > len - pos)
			goto bad;
		tlv_record(p, family, type, tlen, base + pos, layer);
		if (e && family == DYNPF_TLV_SRH_TLV)
			srh_tlv_decode(e, o, type, tlen, nh->data_end);
		else if (e)
			ip6_opt_decode(e, o, type, tlen, nh->data_end);
		pos += tlen;
	}
	/* may_goto's budget ran out: stop, as dynpf's walk does. */
	return 0;
bad:
	/* The header carrying the area was valid: it stays listed, like dynpf's. */
	set_err(p, err, proto, base + pos);
	p->err_layer = layer;
	return -1;
}

/*
 * Claim the next entry of the IPv6 chain for a header of type proto, as
 * dynpf_ext_begin(): depth limit, RFC 8200 flags, common fields. The entry
 * counts (ip6.n) once its fixed part is valid (ext_commit()).
 */
static __always_inline struct dynpf_ext *ext_begin(struct hdr_cursor *nh, struct dynpf_pkt *p,
						   int proto)
{
	struct dynpf_ip6chain *ch = &cur_st(nh, p)->ip6;
	__u32 n = ch->n;
	struct dynpf_ext *e;

	if (n >= DYNPF_MAX_EXT) {
		set_err(p, DYNPF_E_DEPTH, proto, cur_off(nh));
		return NULL;
	}
	dynpf_ip6chain_note(ch, proto);
	e = &ch->ext[n & (DYNPF_MAX_EXT - 1)];
	*e = (struct dynpf_ext){ .proto = proto, .layer = p->nlayers, .off = cur_off(nh) };
	return e;
}

static __always_inline void ext_commit(struct hdr_cursor *nh, struct dynpf_pkt *p)
{
	cur_st(nh, p)->ip6.n++;
}

/* Fixed parts of the extension headers, in 8 bytes. */
#define BENCH_EXT_FIXED 8
/* parse_ext(): the chain ends here (non-first fragment, ESP). */
#define BENCH_EXT_STOP 0x100

/*
 * One IPv6 extension header: hop-by-hop, destination options (their
 * options walked), routing (SRH: segments skipped, TLVs walked), fragment,
 * AH, ESP. Its Next Header byte, BENCH_EXT_STOP, or -1 with p->err set.
 */
static __always_inline int parse_ext(struct hdr_cursor *nh, struct dynpf_pkt *p,
				     struct bench_walk *w, int proto)
{
	struct dynpf_l3 *l3 = &cur_st(nh, p)->l3;
	__u32 off = cur_off(nh), len, segs, aoff, alen;
	struct dynpf_ext *e;
	__u8 *h = nh->pos, family, layer;
	__u16 om;

	e = ext_begin(nh, p, proto);
	if (!e)
		return -1;
	if ((void *)(h + BENCH_EXT_FIXED) > nh->data_end || !cur_need(nh, BENCH_EXT_FIXED)) {
		set_err(p, DYNPF_E_TRUNCATED, proto, off);
		return -1;
	}
	e->nexthdr = h[0];
	switch (proto) {
	case DYNPF_P_FRAGMENT:
		om = dynpf_get_be16(h + 2);
		e->len = BENCH_EXT_FIXED;
		e->frag_off = om >> 3;
		e->id = dynpf_get_be32(h + 4);
		if (om & 1) {
			e->flags |= DYNPF_EXTF_FRAG_M;
			l3->frag |= DYNPF_FRAG_MF;
		}
		l3->frag_off = e->frag_off;
		l3->id = e->id & 0xffff;
		if (om & 0xfff9)
			l3->frag |= DYNPF_FRAG_IS_FRAG;
		ext_commit(nh, p);
		add_layer(nh, p, proto, off, BENCH_EXT_FIXED);
		cur_set(nh, off + BENCH_EXT_FIXED);
		if (e->frag_off) {
			l3->frag |= DYNPF_FRAG_NONFIRST;
			return BENCH_EXT_STOP;
		}
		return e->nexthdr;
	case DYNPF_P_ESP:
		/* SPI and sequence number; what follows is encrypted. */
		e->nexthdr = 0;
		e->len = BENCH_EXT_FIXED;
		e->id = dynpf_get_be32(h);
		ext_commit(nh, p);
		add_layer(nh, p, proto, off, BENCH_EXT_FIXED);
		cur_set(nh, off + BENCH_EXT_FIXED);
		return BENCH_EXT_STOP;
	case DYNPF_P_AH:
		/* 4-byte units, minus 2 (RFC 4302); the SPI after 4 bytes. */
		len = ((__u32)h[1] + 2) * 4;
		if ((void *)(h + 12) > nh->data_end || !cur_need(nh, 12)) {
			set_err(p, DYNPF_E_TRUNCATED, proto, off);
			return -1;
		}
		if (len < 12) {
			set_err(p, DYNPF_E_BAD_LEN, proto, off);
			return -1;
		}
		if (!cur_need(nh, len)) {
			set_err(p, DYNPF_E_TRUNCATED, proto, off);
			return -1;
		}
		e->len = len;
		e->id = dynpf_get_be32(h + 4);
		ext_commit(nh, p);
		add_layer(nh, p, proto, off, len);
		cur_set(nh, off + len);
		return e->nexthdr;
	}
	/* Options and routing: length in 8-byte units past the first 8. */
	len = ((__u32)h[1] + 1) * 8;
	if (!cur_need(nh, len) || (void *)(h + (len & 0x7f8)) > nh->data_end) {
		set_err(p, DYNPF_E_TRUNCATED, proto, off);
		return -1;
	}
	e->len = len;
	aoff = off + 2;
	alen = len - 2;
	family = proto == DYNPF_P_HOPOPTS ? DYNPF_TLV_IPV6_HBH : DYNPF_TLV_IPV6_DST;
	if (proto == DYNPF_P_ROUTING) {
		e->rt_type = h[2];
		e->segleft = h[3];
		if (h[2] != 4) {
			ext_commit(nh, p);
			add_layer(nh, p, proto, off, len);
			cur_set(nh, off + len);
			return e->nexthdr;
		}
		/* SRv6: last entry + 1 segments of 16 bytes, then TLVs. */
		segs = ((__u32)h[4] + 1) * 16;
		if (BENCH_EXT_FIXED + segs > len) {
			set_err(p, DYNPF_E_BAD_LEN, proto, off);
			return -1;
		}
		e->last_entry = h[4];
		e->srh_flags = h[5];
		e->srh_tag = dynpf_get_be16(h + 6);
		e->flags |= DYNPF_EXTF_SRH;
		aoff = off + BENCH_EXT_FIXED + segs;
		alen = len - BENCH_EXT_FIXED - segs;
		family = DYNPF_TLV_SRH_TLV;
	}
	ext_commit(nh, p);
	layer = p->nlayers;
	add_layer(nh, p, proto, off, len);
	cur_set(nh, off + len);
	if (alen && call_tlv(nh, p, w, family, aoff, alen, layer, proto,
				     cur_st(nh, p)->ip6.n - 1) < 0)
		return -1;
	return e->nexthdr;
}

static __always_inline int is_ext(int proto)
{
	return proto >= DYNPF_P_HOPOPTS && proto <= DYNPF_P_ESP;
}

/*
 * The chain of extension headers after the IPv6 header, up to DYNPF_MAX_EXT
 * (dynpf's default). A may_goto loop, bounded by ext_begin()'s depth check
 * (entries in memory): DYNPF_MAX_EXT headers, the next one ends in
 * DYNPF_E_DEPTH. The round's state is the Next Header byte, read back from
 * the result (memory), not the protocol it maps to: every round then looks
 * the same to the verifier, which checks the chain once, not once per
 * sequence of header types (past its budget, measured).
 */
static __always_inline int parse_ip6_chain(struct hdr_cursor *nh, struct dynpf_pkt *p,
					   struct bench_walk *w)
{
	int nxt = cur_st(nh, p)->l3.proto, proto;

	for (;;) {
		dynpf_cond_break;
		proto = next_from_ipproto(nxt, 1);
		if (!is_ext(proto))
			return proto;
		nxt = parse_ext(nh, p, w, proto);
		if (nxt < 0)
			return -1;
		if (nxt == BENCH_EXT_STOP)
			return DYNPF_P_NONE;
	}
	/* may_goto's budget ran out. */
	return DYNPF_P_NONE;
}

/* Geneve and VXLAN: what they carry is the next stack (DYNPF_NEXT_INNER). */
#define BENCH_ETH_P_TEB 0x6558
#define BENCH_VXLAN_I 0x08

static __always_inline int tun_inner(__u16 ethertype)
{
	switch (ethertype) {
	case BENCH_ETH_P_TEB:
		return DYNPF_P_ETH | DYNPF_NEXT_INNER;
	case DYNPF_ETH_P_IPV4:
		return DYNPF_P_IPV4 | DYNPF_NEXT_INNER;
	case DYNPF_ETH_P_IPV6:
		return DYNPF_P_IPV6 | DYNPF_NEXT_INNER;
	}
	return DYNPF_P_NONE;
}

static __always_inline int parse_vxlan(struct hdr_cursor *nh, struct dynpf_pkt *p)
{
	struct dynpf_tun *t = &cur_st(nh, p)->tun;
	__u32 off = cur_off(nh);
	__u8 *h = nh->pos;

	if ((void *)(h + 8) > nh->data_end || !cur_need(nh, 8)) {
		set_err(p, DYNPF_E_TRUNCATED, DYNPF_P_VXLAN, off);
		return -1;
	}
	*t = (struct dynpf_tun){
		.proto = DYNPF_P_VXLAN,
		.flags = h[0],
		.inner = BENCH_ETH_P_TEB,
		.vni = (__u32)h[4] << 16 | (__u32)h[5] << 8 | h[6],
	};
	/* RFC 7348: the I flag must be set for the VNI to be valid. */
	if (!(h[0] & BENCH_VXLAN_I)) {
		set_err(p, DYNPF_E_BAD_HDR, DYNPF_P_VXLAN, off);
		return -1;
	}
	add_layer(nh, p, DYNPF_P_VXLAN, off, 8);
	nh->pos = h + 8;
	return DYNPF_P_ETH | DYNPF_NEXT_INNER;
}

static __always_inline int parse_geneve(struct hdr_cursor *nh, struct dynpf_pkt *p,
					struct bench_walk *w)
{
	struct dynpf_tun *t = &cur_st(nh, p)->tun;
	__u32 off = cur_off(nh), optlen;
	__u8 *h = nh->pos, layer;

	if ((void *)(h + 8) > nh->data_end || !cur_need(nh, 8)) {
		set_err(p, DYNPF_E_TRUNCATED, DYNPF_P_GENEVE, off);
		return -1;
	}
	optlen = (h[0] & 0x3f) * 4;
	*t = (struct dynpf_tun){
		.proto = DYNPF_P_GENEVE,
		.flags = (__u16)h[0] << 8 | h[1],
		.inner = dynpf_get_be16(h + 2),
		.vni = (__u32)h[4] << 16 | (__u32)h[5] << 8 | h[6],
		.opt_len = optlen,
	};
	if (h[0] >> 6) {
		set_err(p, DYNPF_E_BAD_VERSION, DYNPF_P_GENEVE, off);
		return -1;
	}
	if (!cur_need(nh, 8 + optlen) || (void *)(h + 8 + (optlen & 0xfc)) > nh->data_end) {
		set_err(p, DYNPF_E_TRUNCATED, DYNPF_P_GENEVE, off);
		return -1;
	}
	layer = p->nlayers;
	add_layer(nh, p, DYNPF_P_GENEVE, off, 8 + optlen);
	cur_set(nh, off + 8 + optlen);
	if (optlen && call_tlv(nh, p, w, DYNPF_TLV_GENEVE_OPT, off + 8, optlen, layer,
			       DYNPF_P_GENEVE, 0xff) < 0)
		return -1;
	return tun_inner(t->inner);
}

/*
 * One stack of headers, from next: eth → vlan* → ipv4|ipv6 → ext* →
 * tcp|udp → vxlan|geneve. The inner stack's first protocol (with
 * DYNPF_NEXT_INNER), DYNPF_P_NONE at the end, or -1 on error.
 */
static __always_inline int parse_stack(struct hdr_cursor *nh, struct dynpf_pkt *p,
				       struct bench_walk *w, int next, const int inner)
{
	if (next == DYNPF_P_ETH)
		next = parse_eth(nh, p);
	if (next == DYNPF_P_IPV4) {
		next = parse_ipv4(nh, p);
	} else if (next == DYNPF_P_IPV6) {
		next = parse_ipv6(nh, p);
		/*
		 * The inner stack, itself a global subprogram, walks the chain
		 * in line: four frames would not fit the 512-byte stack.
		 */
		if (is_ext(next))
			next = inner ? parse_ip6_chain(nh, p, w) : call_chain(nh, p, w);
	}
	if (next == DYNPF_P_TCP)
		next = parse_tcp(nh, p, w);
	else if (next == DYNPF_P_UDP)
		next = parse_udp(nh, p);
	if (next == DYNPF_P_VXLAN)
		next = parse_vxlan(nh, p);
	else if (next == DYNPF_P_GENEVE)
		next = parse_geneve(nh, p, w);
	return next;
}

/*
 * The whole packet: the outer stack, and a tunnel's inner one, then the same
 * bookkeeping as dynpf_run(): result fields, hook, ifindex, counters.
 */
static __always_inline void direct_run(void *ctx, int tc, void *data, void *data_end,
				       __u32 pkt_len, __u32 hook, __u32 ifindex)
{
	struct hdr_cursor nh = { .pos = data, .data = data, .data_end = data_end,
				 .lend = pkt_len, .tc = tc, .ctx = ctx };
	struct dynpf_stats *s;
	struct bench_walk *w;
	struct dynpf_pkt *p;
	__u32 zero = 0;
	int next;

	s = bpf_map_lookup_elem(&bench_stats, &hook);
	p = bpf_map_lookup_elem(&bench_scratch, &zero);
	w = bpf_map_lookup_elem(&bench_walk, &zero);
	if (!s || !p || !w)
		return;
	p->abi = DYNPF_ABI_VERSION;
	p->pkt_len = pkt_len;
	p->nlayers = 0;
	p->nstacks = 1;
	p->err = DYNPF_E_OK;
	p->err_layer = 0;
	p->err_proto = 0;
	p->err_off = 0;
	p->l4_payload_off = 0;
	/* Every family's list, as dynpf resets them. */
	for (int f = 0; f < DYNPF_TLV_NFAM; f++) {
		struct dynpf_tlv_list *l = &p->tlv[f];

		l->seen[0] = l->seen[1] = l->seen[2] = l->seen[3] = 0;
		l->count = l->overflow = l->n = 0;
	}

	next = parse_stack(&nh, p, w, DYNPF_P_ETH, 0);
	if (next > DYNPF_P_NONE && (next & DYNPF_NEXT_INNER)) {
		/* A tunnel's inner packet: the next stack (DYNPF_MAX_STACKS is 2). */
		struct bench_cur *c = &w->cur[0];

		cur_save(&nh, c);
		c->stack = 1;
		p->nstacks = 2;
		if (nh.tc)
			bench_inner_tc(nh.ctx, p, w, c, next & 0xff);
		else
			bench_inner_xdp(nh.ctx, p, w, c, next & 0xff);
	}

	p->hook = hook;
	p->ifindex = ifindex;
	s->packets++;
	s->bytes += p->pkt_len;
	s->err[p->err & (DYNPF_STATS_ERR_SLOTS - 1)]++;
}

/* The global subprograms, for each context type (see call_tlv()). */
#define BENCH_GLOBALS(sfx, ctype, TC)                                                              \
	static __always_inline void cur_load_##sfx(struct hdr_cursor *nh, ctype *ctx,              \
						   const struct bench_cur *c)                      \
	{                                                                                          \
		nh->data = (void *)(long)ctx->data;                                                \
		nh->data_end = (void *)(long)ctx->data_end;                                        \
		nh->lend = c->lend;                                                                \
		nh->stack = c->stack;                                                              \
		nh->tc = TC;                                                                       \
		nh->ctx = ctx;                                                                     \
		cur_set(nh, c->off);                                                               \
	}                                                                                          \
                                                                                                   \
	__noinline int bench_tlv_##sfx(ctype *ctx, struct dynpf_pkt *p, struct bench_walk *w,      \
				       struct bench_cur *c)                                        \
	{                                                                                          \
		struct hdr_cursor nh;                                                              \
		struct dynpf_ext *e;                                                               \
		__u32 args;                                                                        \
		__u8 ext;                                                                          \
                                                                                                   \
		if (!ctx || !p || !w || !c)                                                        \
			return -1;                                                                 \
		args = c->args;                                                                    \
		ext = args >> 24;                                                                  \
		cur_load_##sfx(&nh, ctx, c);                                                       \
		e = ext == 0xff ? NULL                                                             \
				: &p->st[c->stack & (DYNPF_MAX_STACKS - 1)]                        \
					   .ip6.ext[ext & (DYNPF_MAX_EXT - 1)];                    \
		return tlv_walk(&nh, p, w, args & 0xff, c->base, c->len, (args >> 8) & 0xff,       \
				(args >> 16) & 0xff, e);                                           \
	}                                                                                          \
                                                                                                   \
	__noinline int bench_chain_##sfx(ctype *ctx, struct dynpf_pkt *p, struct bench_walk *w,    \
					 struct bench_cur *c)                                      \
	{                                                                                          \
		struct hdr_cursor nh;                                                              \
		int r;                                                                             \
                                                                                                   \
		if (!ctx || !p || !w || !c)                                                        \
			return -1;                                                                 \
		cur_load_##sfx(&nh, ctx, c);                                                       \
		r = parse_ip6_chain(&nh, p, w);                                                    \
		cur_save(&nh, c);                                                                  \
		return r;                                                                          \
	}                                                                                          \
                                                                                                   \
	__noinline int bench_inner_##sfx(ctype *ctx, struct dynpf_pkt *p, struct bench_walk *w,    \
					 struct bench_cur *c, int next)                            \
	{                                                                                          \
		struct hdr_cursor nh;                                                              \
                                                                                                   \
		if (!ctx || !p || !w || !c)                                                        \
			return -1;                                                                 \
		cur_load_##sfx(&nh, ctx, c);                                                       \
		next = parse_stack(&nh, p, w, next, 1);                                            \
		/* A tunnel in the tunnel: no third stack, as dynpf's default. */                  \
		if (next > DYNPF_P_NONE && (next & DYNPF_NEXT_INNER))                              \
			set_err(p, DYNPF_E_DEPTH, next & 0xff, cur_off(&nh));                      \
		return 0;                                                                          \
	}

BENCH_GLOBALS(xdp, struct xdp_md, 0)
BENCH_GLOBALS(tc, struct __sk_buff, 1)

SEC("xdp")
int bench_direct_xdp(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;

	direct_run(ctx, 0, data, data_end, data_end - data, DYNPF_HOOK_XDP, ctx->ingress_ifindex);
	return XDP_PASS;
}

/* Headers in the linear part only; the length counts every fragment. */
SEC("xdp.frags")
int bench_direct_xdp_frags(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;

	direct_run(ctx, 0, data, data_end, bpf_xdp_get_buff_len(ctx), DYNPF_HOOK_XDP_FRAGS,
		   ctx->ingress_ifindex);
	return XDP_PASS;
}

SEC("tc")
int bench_direct_tc(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data;
	void *data_end = (void *)(long)skb->data_end;

	direct_run(skb, 1, data, data_end, skb->len, DYNPF_HOOK_TC_INGRESS, skb->ifindex);
	return BENCH_TC_NEXT;
}

/* ---- dynptr primitives ------------------------------------------------- */

/*
 * One program per dynptr building block and hook. Each builds its dynptr as
 * dynpf's entry points do, then makes BENCH_PRIM_N calls of one primitive,
 * unrolled; "ctor" makes none. The loader times them in the same interleaved
 * runs as the empty program, and takes
 *
 *	constructor   = t(ctor) - t(empty)
 *	ns per call   = (t(prim) - t(ctor)) / BENCH_PRIM_N
 *
 * clang cannot drop or merge the calls (kfuncs and helpers are opaque to it,
 * and every result is used: a byte of every slice and read is summed into
 * bench_prim_sink, every return value is tested). A failure (no dynptr, a
 * NULL slice, a failed clone, adjust or read) returns the hook's failure
 * value instead of its pass value, and the loader then refuses the figure:
 * a primitive that did not run is never timed.
 *
 * Every call reads the same BENCH_PRIM_LEN bytes at BENCH_PRIM_OFF (the IPv4
 * header of the bench packet): the cost of the call, not of the bytes.
 */
#define BENCH_PRIM_N 16
#define BENCH_PRIM_OFF 14
#define BENCH_PRIM_LEN 20

#define BENCH_TC_SHOT 2 /* TC_ACT_SHOT: a primitive failed */

/* Read by the loader (the skeleton's rodata): its divisor and its labels. */
const volatile __u32 bench_prim_calls = BENCH_PRIM_N;
const volatile __u32 bench_prim_off = BENCH_PRIM_OFF;
const volatile __u32 bench_prim_len = BENCH_PRIM_LEN;

/* Where the results go, so that none can be optimised away. */
__u64 bench_prim_sink;

static __always_inline int prim_ctor(const struct bpf_dynptr *dp, __u64 *sum)
{
	return 0;
}

/* A slice with a buffer, as the cursor takes them (dynpf_cur_slice()). */
static __always_inline int prim_slice(const struct bpf_dynptr *dp, __u64 *sum)
{
	__u8 buf[BENCH_PRIM_LEN];
	const __u8 *p;

#pragma clang loop unroll(full)
	for (int i = 0; i < BENCH_PRIM_N; i++) {
		p = bpf_dynptr_slice(dp, BENCH_PRIM_OFF, buf, sizeof(buf));
		if (!p)
			return -1;
		*sum += p[i % BENCH_PRIM_LEN];
	}
	return 0;
}

/* A clone, as dynpf_layer_step() makes one per rare layer. */
static __always_inline int prim_clone(const struct bpf_dynptr *dp, __u64 *sum)
{
	struct bpf_dynptr v;

#pragma clang loop unroll(full)
	for (int i = 0; i < BENCH_PRIM_N; i++) {
		if (bpf_dynptr_clone(dp, &v))
			return -1;
	}
	return 0;
}

/* A bounded view: a clone ending exactly at a header's end. */
static __always_inline int prim_clone_adjust(const struct bpf_dynptr *dp, __u64 *sum)
{
	struct bpf_dynptr v;

#pragma clang loop unroll(full)
	for (int i = 0; i < BENCH_PRIM_N; i++) {
		if (bpf_dynptr_clone(dp, &v) ||
		    bpf_dynptr_adjust(&v, BENCH_PRIM_OFF, BENCH_PRIM_OFF + BENCH_PRIM_LEN))
			return -1;
	}
	return 0;
}

/* A copy, as dynpf_cur_fetch_area() makes of long option areas. */
static __always_inline int prim_read(const struct bpf_dynptr *dp, __u64 *sum)
{
	__u8 buf[BENCH_PRIM_LEN];

#pragma clang loop unroll(full)
	for (int i = 0; i < BENCH_PRIM_N; i++) {
		if (bpf_dynptr_read(buf, sizeof(buf), dp, BENCH_PRIM_OFF, 0))
			return -1;
		*sum += buf[i % BENCH_PRIM_LEN];
	}
	return 0;
}

/* The three hooks' programs for one primitive: bench_prim_NAME_{xdp,xdp_frags,tc}. */
#define BENCH_PRIM_PROGS(name)                                                                     \
	SEC("xdp")                                                                                 \
	int bench_prim_##name##_xdp(struct xdp_md *ctx)                                            \
	{                                                                                          \
		struct bpf_dynptr dp;                                                              \
		__u64 sum = 0;                                                                     \
                                                                                                   \
		if (bpf_dynptr_from_xdp(ctx, 0, &dp) || prim_##name(&dp, &sum))                    \
			return XDP_ABORTED;                                                        \
		bench_prim_sink = sum;                                                             \
		return XDP_PASS;                                                                   \
	}                                                                                          \
                                                                                                   \
	SEC("xdp.frags")                                                                           \
	int bench_prim_##name##_xdp_frags(struct xdp_md *ctx)                                      \
	{                                                                                          \
		struct bpf_dynptr dp;                                                              \
		__u64 sum = 0;                                                                     \
                                                                                                   \
		if (bpf_dynptr_from_xdp(ctx, 0, &dp) || prim_##name(&dp, &sum))                    \
			return XDP_ABORTED;                                                        \
		bench_prim_sink = sum;                                                             \
		return XDP_PASS;                                                                   \
	}                                                                                          \
                                                                                                   \
	SEC("tc")                                                                                  \
	int bench_prim_##name##_tc(struct __sk_buff *skb)                                          \
	{                                                                                          \
		struct bpf_dynptr dp;                                                              \
		__u64 sum = 0;                                                                     \
                                                                                                   \
		if (bpf_dynptr_from_skb(skb, 0, &dp) || prim_##name(&dp, &sum))                    \
			return BENCH_TC_SHOT;                                                      \
		bench_prim_sink = sum;                                                             \
		return BENCH_TC_NEXT;                                                              \
	}

BENCH_PRIM_PROGS(ctor)
BENCH_PRIM_PROGS(slice)
BENCH_PRIM_PROGS(clone)
BENCH_PRIM_PROGS(clone_adjust)
BENCH_PRIM_PROGS(read)

/* ---- on the wire: dynpf bench --live ------------------------------------ */

/*
 * The traffic generator. Run with BPF_PROG_TEST_RUN and
 * BPF_F_TEST_XDP_LIVE_FRAMES, its ctx's ingress_ifindex the sending end of
 * the test bed's veth pair: the kernel turns XDP_TX into a redirect out of
 * that device (ndo_xdp_xmit), so every repetition is a frame the veth puts
 * on its peer's ring, where the program under test runs.
 *
 * Every repetition becomes the next frame of bench_live_frames, in turn
 * (its length set with bpf_xdp_adjust_tail(), its bytes written whole: the
 * test run recycles its pages, and nothing is assumed of what a page still
 * holds). One test run thus sends the whole capture, over and over: a test
 * run whose frames reached the peer took 16 to 28 ms here however few it
 * sent, too much to pay per frame. With bench_live_nframes 0 the frame of
 * the test run goes out as it is.
 */
#define BENCH_LIVE_FRAME_MAX 1520 /* MTU 1500, Ethernet header and a VLAN tag */

struct bench_live_frame {
	__u32 len;
	__u8 data[BENCH_LIVE_FRAME_MAX];
};

/* Sized by the loader to the frames it sends. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bench_live_frame);
} bench_live_frames SEC(".maps");

__u32 bench_live_nframes; /* 0: send the test run's frame as it is */
__u32 bench_live_next;	  /* the next frame: one sender at a time */
__u64 bench_live_sent;	  /* frames handed to XDP_TX */

SEC("xdp")
int bench_live_tx(struct xdp_md *ctx)
{
	__u32 i = bench_live_next, n = bench_live_nframes, len, cur;
	struct bench_live_frame *f;

	if (n) {
		if (i >= n)
			i = 0;
		bench_live_next = i + 1;
		f = bpf_map_lookup_elem(&bench_live_frames, &i);
		if (!f)
			return XDP_ABORTED;
		len = f->len;
		if (len < 14 || len > BENCH_LIVE_FRAME_MAX)
			return XDP_ABORTED;
		cur = ctx->data_end - ctx->data;
		if (len != cur && bpf_xdp_adjust_tail(ctx, (int)len - (int)cur))
			return XDP_ABORTED;
		if (bpf_xdp_store_bytes(ctx, 0, f->data, len))
			return XDP_ABORTED;
	}
	bench_live_sent++;
	return XDP_TX;
}

/* Frames bench_live_drop saw, per CPU: its received rate. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} bench_live_rx SEC(".maps");

/* The baseline receiver: counts the frame and drops it, nothing else. */
SEC("xdp")
int bench_live_drop(struct xdp_md *ctx)
{
	__u32 zero = 0;
	__u64 *n = bpf_map_lookup_elem(&bench_live_rx, &zero);

	if (n)
		(*n)++;
	return XDP_DROP;
}
