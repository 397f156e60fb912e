/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The cursor: the only door through which parsers read packet bytes.
 *
 * In BPF it wraps a dynptr made by bpf_dynptr_from_xdp() or
 * bpf_dynptr_from_skb(); natively it wraps a plain byte buffer. Parsers see
 * the same calls either way:
 *
 *   dynpf_cur_slice(c, off, buf)      a header of constant size sizeof(*buf)
 *   dynpf_cur_area(c, off, len, buf)  a variable-length area (len <= sizeof(*buf))
 *   dynpf_cur_fetch_area(c, off, len) the same, copied into the scratch area
 *   dynpf_cur_need(c, off, n)         are n bytes left at off?
 *
 * slice and area return a pointer that may point into the packet or into buf
 * (when the bytes span fragments, bpf_dynptr_slice() copies them there):
 * never assume either, never write through it, and keep buf alive while
 * using it. An area is indexed only through dynpf_area_ptr().
 *
 * Bounds: "end" is the logical end of the packet for the headers still to
 * come. It starts at the packet length and an IP header lowers it to the end
 * of its payload, so Ethernet padding is never parsed as a header or option.
 */
#ifndef DYNPF_PARSERS_CURSOR_H
#define DYNPF_PARSERS_CURSOR_H

#include "common.h"

/* Where the bytes come from: a dynptr in BPF, a buffer natively. */
#if defined(__bpf__)
typedef const struct bpf_dynptr *dynpf_src_t;
#else
typedef const __u8 *dynpf_src_t;
#endif

/*
 * Scratch space an option area is copied into before it is walked: a global
 * subprogram walks it, and may only be handed writable memory. In BPF it is
 * a per-CPU map value (too big for the stack); natively, the caller's.
 * 2048 bytes: the largest IPv6 extension header.
 */
#define DYNPF_AREA_MAX 2048

struct dynpf_area {
	__u8 b[DYNPF_AREA_MAX];
	/* The walk's iterator lives here too: the BPF stack is 512 bytes. */
	__u64 it[8];
};

struct dynpf_cursor {
	dynpf_src_t src;
	struct dynpf_area *area;
	__u32 len;     /* bytes in the packet */
	__u32 end;     /* logical end for the headers still to parse */
	__u32 off;     /* offset of the next header */
	__u32 err_off; /* where the current header failed, if not its start */
	__u8 stack;    /* index of the header stack being parsed */
	__u8 keep_layer; /* on error: the failing header's fixed part is valid */
	__u8 max_ext;    /* limits from struct dynpf_parse_cfg */
	__u8 max_stacks;
	__u32 vlan_offload; /* TPID << 16 | TCI of a tag taken off the front before the
			     * hook (skb->vlan_proto, skb->vlan_tci); 0: none */
};

/* n bytes available at off, within the logical end? */
dynpf_inline int dynpf_cur_need(const struct dynpf_cursor *c, __u32 off, __u32 n)
{
	return off <= c->end && n <= c->end - off;
}

/*
 * n bytes at off inside an area fetched with dynpf_cur_area() into a buffer of
 * amax bytes, or NULL. Walkers index areas only through this: the fences make
 * clang test exactly the register it then adds to a, in the plain form
 * "off > amax - n" the verifier can bound (left alone, clang rewrites the
 * test from what it knows of off, or tests a copy, and the verifier loses the
 * bound). Protocol length checks are the caller's; this one is for safety.
 */
dynpf_inline const __u8 *dynpf_area_ptr(const __u8 *a, __u64 off, const __u64 n,
					const __u64 amax)
{
	dynpf_barrier_var(off);
	/*
	 * The mask changes nothing (areas are far smaller) but gives off a
	 * fresh verifier identity: unlinked from the registers it was copied
	 * from, the bound below is not lost (or mangled) when they are refined.
	 */
	off &= 0xffff;
	if (off > amax - n)
		return NULL;
	dynpf_barrier_var(off);
	return a + off;
}

#if defined(__bpf__)

dynpf_inline void dynpf_cur_init(struct dynpf_cursor *c, const struct bpf_dynptr *dp,
				  struct dynpf_area *area, struct dynpf_parse_cfg cfg)
{
	__u32 len = bpf_dynptr_size(dp);

	*c = (struct dynpf_cursor){ .src = dp, .area = area, .len = len, .end = len,
				    .max_ext = cfg.max_ext, .max_stacks = cfg.max_stacks };
}

/* size must be a compile-time constant: bpf_dynptr_slice() requires it. */
#define dynpf_cur_slice(c, off, buf)                                           \
	((const __typeof__(*(buf)) *)dynpf__slice(c, off, buf, sizeof(*(buf))))

dynpf_inline const void *dynpf__slice(const struct dynpf_cursor *c, __u32 off, void *buf,
				      const __u32 size)
{
	if (!dynpf_cur_need(c, off, size))
		return NULL;
	return bpf_dynptr_slice(c->src, off, buf, size);
}

/*
 * A variable-length area of len bytes (len <= max). The common case is one
 * slice of the maximum size, which needs max bytes left in the packet (not
 * just len): the slice length must be a constant. Near the end of the packet
 * we fall back to one bpf_dynptr_read() of exactly len bytes into buf. Either
 * way the result can be indexed at [0, max) without upsetting the verifier,
 * and only [0, len) holds packet bytes.
 */
#define dynpf_cur_area(c, off, len, buf)                                       \
	((const __typeof__(*(buf)) *)dynpf__area(c, off, len, buf, sizeof(*(buf))))

dynpf_inline const void *dynpf__area(const struct dynpf_cursor *c, __u32 off, __u32 len,
				     void *buf, const __u32 max)
{
	const void *p;

	if (len > max || !dynpf_cur_need(c, off, len))
		return NULL;
	if (off <= c->len && max <= c->len - off) {
		p = bpf_dynptr_slice(c->src, off, buf, max);
		if (p)
			return p;
	}
	if (bpf_dynptr_read(buf, len, c->src, off, 0))
		return NULL;
	return buf;
}

/*
 * Copy the len bytes at off into the cursor's scratch area; 0 or -1. Short
 * areas (the common case: options of a few bytes to 40) cost one slice with
 * no buffer (NULL when the bytes span fragments) and a 40-byte copy; longer
 * ones, or those near the end of the packet or across fragments, one
 * bpf_dynptr_read() of exactly len bytes.
 */
dynpf_inline int dynpf_cur_fetch_area(const struct dynpf_cursor *c, __u32 off, __u32 len)
{
	const void *p;

	if (len > DYNPF_AREA_MAX || !dynpf_cur_need(c, off, len))
		return -1;
	if (len <= 40 && off <= c->len && 40 <= c->len - off) {
		p = bpf_dynptr_slice(c->src, off, NULL, 40);
		if (p) {
			__builtin_memcpy(c->area->b, p, 40);
			return 0;
		}
	}
	return bpf_dynptr_read(c->area->b, len, c->src, off, 0) ? -1 : 0;
}

#else /* native */

dynpf_inline void dynpf_cur_init(struct dynpf_cursor *c, const __u8 *data, __u32 len,
				  struct dynpf_area *area, struct dynpf_parse_cfg cfg)
{
	*c = (struct dynpf_cursor){ .src = data, .area = area, .len = len, .end = len,
				    .max_ext = cfg.max_ext, .max_stacks = cfg.max_stacks };
}

#define dynpf_cur_slice(c, off, buf)                                           \
	((const __typeof__(*(buf)) *)dynpf__slice(c, off, buf, sizeof(*(buf))))

dynpf_inline const void *dynpf__slice(const struct dynpf_cursor *c, __u32 off, void *buf,
				      __u32 size)
{
	(void)buf;
	if (!dynpf_cur_need(c, off, size))
		return NULL;
	return c->src + off;
}

/*
 * Natively the area is always copied into buf with its tail zeroed, which is
 * what the BPF read fallback gives for a zero-initialised buf: so a walker bug
 * that reads past len shows up as a native/BPF difference, never as an
 * out-of-bounds read.
 */
#define dynpf_cur_area(c, off, len, buf)                                       \
	((const __typeof__(*(buf)) *)dynpf__area(c, off, len, buf, sizeof(*(buf))))

dynpf_inline const void *dynpf__area(const struct dynpf_cursor *c, __u32 off, __u32 len,
				     void *buf, __u32 max)
{
	if (len > max || !dynpf_cur_need(c, off, len))
		return NULL;
	memcpy(buf, c->src + off, len);
	memset((__u8 *)buf + len, 0, max - len);
	return buf;
}

dynpf_inline int dynpf_cur_fetch_area(const struct dynpf_cursor *c, __u32 off, __u32 len)
{
	if (len > DYNPF_AREA_MAX || !dynpf_cur_need(c, off, len))
		return -1;
	memcpy(c->area->b, c->src + off, len);
	return 0;
}

#endif

#endif /* DYNPF_PARSERS_CURSOR_H */
