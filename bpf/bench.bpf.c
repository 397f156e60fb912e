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
 * What it does not do: read across XDP fragments (direct access sees only the
 * linear part; the bench shapes keep every header in it) and parse ARP/ICMP.
 *
 *  - bench_prim_*: the dynptr building blocks one at a time (constructor,
 *    slice, clone, clone + adjust, read), for the primitives table of
 *    `dynpf bench`; see their section below.
 */
#include "dynpf/pkt.h"
#include "common.h"

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
 * xdp-tools' cursor, plus the packet's start (for offsets in the result) and
 * its logical end: the packet length, lowered to the end of the IP datagram
 * once an IP header is parsed. data_end bounds every access for the
 * verifier; lend bounds the protocol, like dynpf's cursor does.
 */
struct hdr_cursor {
	void *pos;
	void *data;
	void *data_end;
	__u32 lend;
};

static __always_inline __u32 cur_off(const struct hdr_cursor *nh)
{
	return nh->pos - nh->data;
}

/* n bytes at the cursor, within the logical end? */
static __always_inline int cur_need(const struct hdr_cursor *nh, __u32 n)
{
	__u32 off = cur_off(nh);

	return off <= nh->lend && n <= nh->lend - off;
}

static __always_inline void add_layer(struct dynpf_pkt *p, __u16 proto, __u32 off, __u32 len)
{
	__u32 n = p->nlayers;

	if (n >= DYNPF_MAX_LAYERS)
		return;
	p->layers[n] = (struct dynpf_layer){ .proto = proto, .off = off, .len = len };
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

static __always_inline int next_from_ipproto(__u8 proto)
{
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
	struct dynpf_l2 *l2 = &p->st[0].l2;
	struct dynpf_ethhdr *eth = nh->pos;
	struct dynpf_vlanhdr *vh;
	__u16 proto;
	int next, i;

	if ((void *)(eth + 1) > nh->data_end || !cur_need(nh, sizeof(*eth))) {
		set_err(p, DYNPF_E_TRUNCATED, DYNPF_P_ETH, 0);
		return -1;
	}
	proto = dynpf_ntohs(eth->proto);
	*l2 = (struct dynpf_l2){ .ethertype = proto };
	__builtin_memcpy(l2->dst, eth->dst, 6);
	__builtin_memcpy(l2->src, eth->src, 6);
	add_layer(p, DYNPF_P_ETH, 0, sizeof(*eth));
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
		add_layer(p, next, cur_off(nh), sizeof(*vh));
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
	struct dynpf_l3 *l3 = &p->st[0].l3;
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
	add_layer(p, DYNPF_P_IPV4, off, hlen);
	nh->lend = off + tot_len;
	/* hlen <= 60: a bounded step, checked against data_end by the next header. */
	nh->pos += hlen & 0x3c;
	if (frag & DYNPF_IP_OFFMASK) {
		l3->frag |= DYNPF_FRAG_NONFIRST;
		return DYNPF_P_NONE;
	}
	return next_from_ipproto(iph->proto);
}

static __always_inline int parse_ipv6(struct hdr_cursor *nh, struct dynpf_pkt *p)
{
	struct dynpf_l3 *l3 = &p->st[0].l3;
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
	add_layer(p, DYNPF_P_IPV6, off, sizeof(*ip6h));
	/* Payload length 0 with hop-by-hop may be a jumbogram: keep the end. */
	if (plen || ip6h->nexthdr != 0)
		nh->lend = off + sizeof(*ip6h) + plen;
	nh->pos = ip6h + 1;
	return next_from_ipproto(ip6h->nexthdr);
}

static __always_inline int parse_udp(struct hdr_cursor *nh, struct dynpf_pkt *p)
{
	struct dynpf_l4 *l4 = &p->st[0].l4;
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
	if (!(p->st[0].l3.frag & DYNPF_FRAG_IS_FRAG) && !cur_need(nh, ulen)) {
		set_err(p, DYNPF_E_TRUNCATED, DYNPF_P_UDP, off);
		return -1;
	}
	*l4 = (struct dynpf_l4){
		.sport = dynpf_ntohs(uh->sport),
		.dport = dynpf_ntohs(uh->dport),
		.ulen = ulen,
		.hdr_len = sizeof(*uh),
	};
	add_layer(p, DYNPF_P_UDP, off, sizeof(*uh));
	p->l4_payload_off = off + sizeof(*uh);
	nh->pos = uh + 1;
	return DYNPF_P_NONE;
}

/* Record one TCP option, as dynpf_tlv_record() does. */
static __always_inline void tcp_opt_record(struct dynpf_pkt *p, __u8 kind, __u32 len,
					   __u32 off, __u8 layer)
{
	struct dynpf_tlv_list *l = &p->tlv[DYNPF_TLV_TCP_OPT];
	__u32 n = l->n;

	l->seen[kind >> 6] |= 1ULL << (kind & 63);
	if (l->count < 255)
		l->count++;
	if (n >= DYNPF_MAX_TLVS) {
		l->overflow = 1;
		return;
	}
	l->ent[n] = (struct dynpf_tlv){
		.type = kind,
		.len = len,
		.off = off,
		.family = DYNPF_TLV_TCP_OPT,
		.layer = layer,
	};
	l->n = n + 1;
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

/*
 * Walk the olen (<= 40) option bytes that follow the TCP header th, option
 * by option, in place: every option's bytes are checked against data_end
 * before they are read, like the kernel selftest
 * progs/test_parse_tcp_hdr_opt.c. 0, or -1 with p->err set.
 */
static __always_inline int tcp_opts_walk(struct hdr_cursor *nh, struct dynpf_pkt *p,
					 __u8 *th, __u32 olen, __u8 layer)
{
	__u32 base = (void *)th - nh->data + sizeof(struct dynpf_tcphdr);
	__u8 *opts = th + sizeof(struct dynpf_tcphdr);
	__u64 pos = 0, len;
	__u32 i;
	__u8 *o;
	__u8 kind;

	/* 40 bytes hold at most 40 options (all NOPs): the bound is exact. */
	for (i = 0; i < DYNPF_TCP_MAX_OPTLEN; i++) {
		/*
		 * Forget what this path knows of pos (one instruction): every
		 * path into the next round then looks the same to the verifier,
		 * which prunes them. Without it the option kinds times the
		 * offsets they leave pos at exceed its one-million-instruction
		 * budget (measured).
		 */
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
		tcp_opt_decode(&p->st[0].l4, o, len, nh->data_end);
		pos += len;
	}
	return 0;
bad:
	/* The TCP header itself was valid: it stays listed, like dynpf's. */
	set_err(p, DYNPF_E_TLV_LEN, DYNPF_P_TCP, base + pos);
	p->err_layer = layer;
	return -1;
}

static __always_inline int parse_tcp(struct hdr_cursor *nh, struct dynpf_pkt *p)
{
	struct dynpf_l4 *l4 = &p->st[0].l4;
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
	add_layer(p, DYNPF_P_TCP, off, doff);
	p->l4_payload_off = off + doff;
	if (doff > sizeof(*th))
		r = tcp_opts_walk(nh, p, (__u8 *)th, doff - sizeof(*th), layer);
	nh->pos = (__u8 *)th + (doff & 0x3c);
	return r < 0 ? r : DYNPF_P_NONE;
}

/*
 * The whole packet: eth → vlan* → ipv4|ipv6 → tcp|udp, then the same
 * bookkeeping as dynpf_run(): result fields, hook, ifindex, counters.
 */
static __always_inline void direct_run(void *data, void *data_end, __u32 pkt_len, __u32 hook,
				       __u32 ifindex)
{
	struct hdr_cursor nh = { .pos = data, .data = data, .data_end = data_end,
				 .lend = pkt_len };
	struct dynpf_stats *s;
	struct dynpf_pkt *p;
	__u32 zero = 0;
	int next;

	s = bpf_map_lookup_elem(&bench_stats, &hook);
	p = bpf_map_lookup_elem(&bench_scratch, &zero);
	if (!s || !p)
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

	next = parse_eth(&nh, p);
	if (next == DYNPF_P_IPV4)
		next = parse_ipv4(&nh, p);
	else if (next == DYNPF_P_IPV6)
		next = parse_ipv6(&nh, p);
	if (next == DYNPF_P_TCP)
		parse_tcp(&nh, p);
	else if (next == DYNPF_P_UDP)
		parse_udp(&nh, p);

	p->hook = hook;
	p->ifindex = ifindex;
	s->packets++;
	s->bytes += p->pkt_len;
	s->err[p->err & (DYNPF_STATS_ERR_SLOTS - 1)]++;
}

SEC("xdp")
int bench_direct_xdp(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;

	direct_run(data, data_end, data_end - data, DYNPF_HOOK_XDP, ctx->ingress_ifindex);
	return XDP_PASS;
}

/* Headers in the linear part only; the length counts every fragment. */
SEC("xdp.frags")
int bench_direct_xdp_frags(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;

	direct_run(data, data_end, bpf_xdp_get_buff_len(ctx), DYNPF_HOOK_XDP_FRAGS,
		   ctx->ingress_ifindex);
	return XDP_PASS;
}

SEC("tc")
int bench_direct_tc(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data;
	void *data_end = (void *)(long)skb->data_end;

	direct_run(data, data_end, skb->len, DYNPF_HOOK_TC_INGRESS, skb->ifindex);
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
