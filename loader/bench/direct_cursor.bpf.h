/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The direct parser's cursor and result bookkeeping (direct.bpf.h): the
 * header cursor over data/data_end, the offsets it travels as into the
 * global subprograms, layers, errors, TLV records, the per-CPU walk state,
 * and what follows an Ethernet or IP header.
 */
#ifndef DYNPF_BENCH_DIRECT_CURSOR_BPF_H
#define DYNPF_BENCH_DIRECT_CURSOR_BPF_H

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

static __always_inline struct dynpf_stack *cur_st(const struct hdr_cursor *nh, struct dynpf_pkt *p)
{
	return &p->st[nh->stack & (DYNPF_MAX_STACKS - 1)];
}

static __always_inline void add_layer(const struct hdr_cursor *nh, struct dynpf_pkt *p, __u16 proto,
				      __u32 off, __u32 len)
{
	__u32 n = p->nlayers;

	if (n >= DYNPF_MAX_LAYERS)
		return;
	p->layers[n] =
		(struct dynpf_layer){ .proto = proto, .off = off, .len = len, .stack = nh->stack };
	p->nlayers = n + 1;
}

static __always_inline void set_err(struct dynpf_pkt *p, int err, __u16 proto, __u32 off)
{
	p->err = err;
	p->err_layer = p->nlayers;
	p->err_proto = proto;
	p->err_off = off;
}

/*
 * An error in a TLV area at off: the layer of the header carrying it, which
 * was valid and stays listed. -1.
 */
static __always_inline int area_err(struct dynpf_pkt *p, int err, __u16 proto, __u32 off,
				    __u8 layer)
{
	set_err(p, err, proto, off);
	p->err_layer = layer;
	return -1;
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
		.hdr = family == DYNPF_TLV_GENEVE_OPT ? 4 : 2, /* type and length fields */
	};
	l->n = n + 1;
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

#endif
