/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The cursor: the only door through which parsers read packet bytes.
 *
 * In BPF it wraps a dynptr made by bpf_dynptr_from_xdp() or
 * bpf_dynptr_from_skb(); natively it wraps a plain byte buffer. Parsers see
 * the same calls either way:
 *
 *   dynpf_cur_slice(c, off, T)        a header of type T (a constant size)
 *   dynpf_cur_fetch_area(c, off, len) a variable-length area, made walkable in
 *                                     the scratch area: its offset there
 *   dynpf_cur_need(c, off, n)         are n bytes left at off?
 *
 * Both read through the window (below). A header's pointer is valid until
 * the next dynpf_cur_slice() or dynpf_cur_fetch_area(), which may slide the
 * window: copy what you need out of a header before reading the next one.
 * Never write through it. An area is indexed only through dynpf_area_ptr().
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
 * The window: a per-CPU copy of DYNPF_WIN packet bytes from offset wbase (or
 * up to the end of the packet), and the one place headers and option areas
 * are read from. It is filled when the parse starts, with one slice of the
 * packet's first DYNPF_WIN bytes, copied (one bpf_dynptr_read() when the
 * packet is shorter or its first fragment is); a header or option area
 * outside it slides it there (one bpf_dynptr_read()). Every header and
 * option area inside it is read with no helper call: a common packet
 * (Ethernet, VLAN tags, IPv4 or IPv6, TCP with its options, UDP) costs one
 * slice or one read instead of one slice per header and a read per option
 * area. 256 bytes hold the headers of nearly every packet: Ethernet + IPv6 +
 * TCP with all 40 bytes of options is 114, a VXLAN or Geneve tunnel's outer
 * headers and its inner Ethernet + IPv4 + TCP with options 144 to 200 (with
 * 64 bytes of Geneve options), and short IPv6 extension header chains.
 * 256 and not 128 (bench, the shapes table, xdp, 2026-12-05): geneve8
 * 250 -> 214 ns, vxlan-tcp 263 -> 228, geneve-tcp 222 -> 185, ipv6-ext4
 * 299 -> 253, srh4 175 -> 146, each a slide (a bpf_dynptr_read()) less; a
 * 1514-byte frame copies 128 bytes more, within the noise (106 -> 103-104).
 *
 * Why a copy and not the slice itself: a slice's size must be a constant
 * and the slice fails when fewer bytes are left, so the packet's tail would
 * need windows of other sizes, and each size (and "no window", and "window
 * or slice" per header) is another path for the verifier through the whole
 * parse graph: tried, a 128-byte slice window read in place took dynpf_xdp
 * from 396k to 967k instructions. The copy sits in a map value of one size:
 * every header read is the same pointer into it, whether the window slid or
 * not, and global subprograms read it too (they are handed the area).
 * Copying the window costs a few ns, a fraction of one helper call.
 */
#define DYNPF_WIN 256

/*
 * Scratch space behind the window, where an option area that does not fit
 * in the window is copied to be walked: a global subprogram walks it, and
 * may only be handed writable memory. In BPF it is a per-CPU map value (too
 * big for the stack); natively, the caller's. 2048 bytes: the largest IPv6
 * extension header.
 */
#define DYNPF_AREA_MAX 2048

struct dynpf_area {
	/* b[0, DYNPF_WIN): the window; b[DYNPF_WIN, ...): a fetched area. */
	__u8 b[DYNPF_WIN + DYNPF_AREA_MAX];
	/* The walk's iterator lives here too: the BPF stack is 512 bytes. */
	__u64 it[8];
	__u64 forget; /* see dynpf_forget() */
	/*
	 * The TCP option walk may end once it has seen each of these types
	 * (below 64): set by the TCP parser before each walk (the option
	 * gate, tcp.h), DYNPF_TCP_OPT_WHOLE to walk the whole area; the walk
	 * reads the iterator's copy. Here, not in the parser's frame: kept
	 * there across the area's fetch, it took the programs' calls past
	 * the 512 bytes of stack they may share.
	 */
	__u64 tcp_want;
	/*
	 * Where the window is: packet offset of its first byte and the bytes
	 * it holds. Here rather than in the cursor: in a map value the
	 * verifier does not track them, so parse paths that differ only in
	 * where the window sits are not told apart.
	 */
	__u32 wbase;
	__u32 wlen; /* 0: not filled yet for this packet */
	/*
	 * TPID << 16 | TCI of a tag taken off the front before the hook
	 * (skb->vlan_proto, skb->vlan_tci); 0: none. Set for every packet.
	 * Here, not in the cursor: its 4 bytes there went to the context
	 * (the TC programs' chain of frames is at 512 bytes).
	 */
	__u32 vlan_offload;
};

/*
 * Parts of a packet the data path may leave unparsed when no loaded rule
 * needs them (DYNPF_NEED_*, dynpf_rule_needs()): never when it traces, never
 * natively (the reference parses everything).
 */
#define DYNPF_SKIP_TCP_OPT 0x01  /* the TCP option area */
#define DYNPF_SKIP_INNER 0x02    /* a tunnel's inner packet: the walk ends there */
#define DYNPF_SKIP_TUN_OPT 0x04  /* Geneve's option area */
#define DYNPF_SKIP_TLV_LIST 0x08 /* TLVs are counted and in the types seen, not listed */
/* The outer TCP option area, unless a rule that reads options may match
 * the packet (DYNPF_TCP_OPT_GATE(), parsers/tcp.h) */
#define DYNPF_SKIP_TCP_OPT_GATE 0x10
/* The inner stack's TCP (UDP) header and the rest after it: no rule is on
 * the inner stack, and none tests TCP (Geneve) options (dynpf_skips() in
 * bpf/dynpf.bpf.c): no TLV a rule reads lies behind it */
#define DYNPF_SKIP_INNER_TCP 0x20
#define DYNPF_SKIP_INNER_UDP 0x40

struct dynpf_cursor {
	dynpf_src_t src;
	struct dynpf_area *area;
	__u32 len;       /* bytes in the packet */
	__u32 end;       /* logical end for the headers still to parse */
	__u32 off;       /* offset of the next header */
	__u32 err_off;   /* where the current header failed, if not its start */
	__u8 stack;      /* index of the header stack being parsed */
	__u8 keep_layer; /* on error: the failing header's fixed part is valid */
	__u8 err_at;     /* on error: 1 + the index of the layer it belongs to, when
			  * an earlier one (0: the failing header's own) */
	__u8 skip;       /* DYNPF_SKIP_*: what the rules loaded do not need parsed */
	__u8 max_ext;    /* limits from struct dynpf_parse_cfg */
	__u8 max_stacks;
	/*
	 * Protocols declared at runtime (parsers/decl.h): the bindings the
	 * declarations in force use (DYNPF_DECL_*; 0: none, or no rule needs
	 * them: the parse looks for nothing), the index of their table in
	 * dynpf_protos (parsers/decltab.h), the key of the binding
	 * a DYNPF_P_DECL layer is looked up by, and what that layer found (1 +
	 * the protocol's id; 0: no declaration there, no layer).
	 */
	__u16 decl;
	__u8 tab_idx;
	__u8 decl_id;
	__u32 decl_key;
#if !defined(__bpf__)
	const struct dynpf_proto_tab *tab; /* natively: the declarations (BPF: a map) */
#elif defined(DYNPF_DP_LAZY)
	void *ctx; /* the hook's context: the dynptr is made from it (below) */
#endif
};

#if defined(__bpf__)
/*
 * The dynptr made lazily: bpf/dynpf.bpf.c built with DYNPF_DP_LAZY, the XDP
 * programs (.output/dynpf_lazy.bpf.o), and with DYNPF_DP_SKB too, the TC
 * ones (.output/dynpf_lazy_tc.bpf.o): the packet programs the loader runs,
 * on the maps of .output/dynpf.bpf.o (loader/lib/progs.c,
 * dynpf_lazy_open()). They make no dynptr before the parse: every place
 * that reads through it (a slide of the window, an area past it, a rare
 * layer's subprogram, a byte test, a sample) makes it again from the
 * context first, DYNPF_DP_MAKE(), and a packet whose headers fit in the
 * first window (nearly every packet) makes none. A flag of "made" does not
 * verify (the verifier keeps no byte constant in the cursor's stack words
 * and walks the path where the flag says made and the dynptr is not); a
 * dynptr with no reference may be made again, and a failed make leaves one
 * that reads nothing. In test runs, 10,000 rules, the frames of
 * tcp_options.pcap: 25 ns a frame less on XDP, 14-25 on TC (docs/rules.md,
 * "The dynptr made lazily"). Builds of their own, not a read-only global
 * the verifier prunes by: the tests of one, at each read and in each case
 * of the window's ladder, took dynpf_xdp_frags from 697k to 910k verified
 * instructions where the dynptr is made once, and a place's make must be
 * its hook's (a TC program may not call bpf_dynptr_from_xdp()).
 */
#if defined(DYNPF_DP_LAZY) && defined(DYNPF_DP_SKB)
#define DYNPF_LAZY 1
#define DYNPF_DP_MAKE(ctx, dp) \
	bpf_dynptr_from_skb((struct __sk_buff *)(ctx), 0, (struct bpf_dynptr *)(dp))
#elif defined(DYNPF_DP_LAZY)
#define DYNPF_LAZY 1
#define DYNPF_DP_MAKE(ctx, dp) \
	bpf_dynptr_from_xdp((struct xdp_md *)(ctx), 0, (struct bpf_dynptr *)(dp))
#else
#define DYNPF_LAZY 0
#define DYNPF_DP_MAKE(ctx, dp) 0
#endif
#endif

/* n bytes available at off, within the logical end? */
dynpf_inline int dynpf_cur_need(const struct dynpf_cursor *c, __u32 off, __u32 n)
{
	return off <= c->end && n <= c->end - off;
}

/*
 * n bytes at off inside an area of amax bytes made walkable by
 * dynpf_cur_fetch_area(), or NULL. Walkers index areas only through this:
 * the fences make clang test exactly the register it then adds to a, in the
 * plain form "off > amax - n" the verifier can bound (left alone, clang
 * rewrites the test from what it knows of off, or tests a copy, and the
 * verifier loses the bound). Protocol length checks are the caller's; this
 * one is for safety.
 */
dynpf_inline const __u8 *dynpf_area_ptr(const __u8 *a, __u64 off, const __u64 n, const __u64 amax)
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

/*
 * x, as a value the verifier knows nothing of: stored to the area and
 * loaded back. For the sizes of reads: a helper's size argument must be
 * exact for the verifier, which would otherwise track its history (the
 * packet offsets it came from) back through the parse and tell apart paths
 * that differ only there.
 */
dynpf_inline __u64 dynpf_forget(struct dynpf_area *a, __u64 x)
{
	*(volatile __u64 *)&a->forget = x;
	return *(volatile __u64 *)&a->forget;
}

/*
 * Make the dynptr, then read (DYNPF_DP_LAZY): out of line, so that the
 * places it is inlined at keep no more values across the calls (inlined,
 * the declared protocols' frame grew 112 -> 152-160 bytes, and its chain
 * of calls past 512 bytes of stack).
 */
#ifdef DYNPF_DP_LAZY
static __attribute__((noinline)) int dynpf_dp_read(void *ctx, __u8 *dst, __u64 n,
						   struct bpf_dynptr *dp, __u32 off)
{
	DYNPF_DP_MAKE(ctx, dp);
	return bpf_dynptr_read(dst, n, dp, off, 0);
}
#endif

/* Copy the len bytes at off to dst (len <= DYNPF_AREA_MAX); 0 or -1. */
dynpf_inline int dynpf_cur_copy(const struct dynpf_cursor *c, __u8 *dst, __u32 off, __u32 len)
{
	__u64 n = dynpf_forget(c->area, len);

	/* The fences: the size tested is the register passed (see
	 * dynpf_area_ptr()). */
	dynpf_barrier_var(n);
	if (n > DYNPF_AREA_MAX)
		return -1;
	dynpf_barrier_var(n);
#ifdef DYNPF_DP_LAZY
	return dynpf_dp_read(c->ctx, dst, n, (struct bpf_dynptr *)c->src, off) ? -1 : 0;
#else
	return bpf_dynptr_read(dst, n, c->src, off, 0) ? -1 : 0;
#endif
}

/*
 * Slide the window to off, with one bpf_dynptr_read() of the next
 * DYNPF_WIN bytes (fewer at the end of the packet). Inlined at every header
 * read of the parse graph, so it is kept small for the verifier: a slice
 * and a 128-byte copy here took dynpf_xdp from 440k to 650k instructions
 * (tried again at 527k, with the read kept for the packet's last 128
 * bytes: past 1M, though on XDP a slice costs half a read, 16 ns against
 * 32), and a global subprogram costs a call (~20 ns measured) per slide. The
 * first fill, in dynpf_cur_init(), is the one every packet pays, and it
 * slices.
 */
dynpf_inline int dynpf_cur_refill(struct dynpf_cursor *c, __u32 off)
{
	__u32 n;

	if (off > c->len)
		return -1;
	n = c->len - off;
	if (n > DYNPF_WIN)
		n = DYNPF_WIN;
	if (dynpf_cur_copy(c, c->area->b, off, n))
		return -1;
	c->area->wbase = off;
	c->area->wlen = n;
	return 0;
}

/*
 * Copy a slice of the packet's first bytes into the window, 8 bytes a load
 * and a store: the slice is a void pointer, so clang would copy it a byte
 * at a time (a 74-byte SYN: 148 instructions). The alignment is a promise
 * about speed, not correctness: an XDP frame starts 8-byte aligned (after
 * its 256-byte headroom), an skb's data at least 2-byte aligned, and the
 * CPUs dynpf runs on (x86-64, arm64) load unaligned words at full speed.
 */
#define dynpf_win_copy(dst, src, n) \
	__builtin_memcpy(__builtin_assume_aligned(dst, 8), __builtin_assume_aligned(src, 8), n)

/* The copy's word: it may alias the bytes the parse then reads as headers. */
typedef __u64 __attribute__((__may_alias__)) dynpf_win_word;

/*
 * One case of dynpf_cur_init()'s ladder: the packet's first n bytes, from
 * the hook's linear head (or a slice of exactly n bytes without one), then
 * into the shared copy at the entry that copies its k = n / 8 whole words.
 */
#define DYNPF_WIN_FILL(n, k)                                                            \
	case n:                                                                         \
		if (head)                                                               \
			w = head + n <= head_end ? head : NULL;                         \
		else                                                                    \
			w = (DYNPF_DP_MAKE(ctx, dp), bpf_dynptr_slice(dp, 0, NULL, n)); \
		if (!w)                                                                 \
			break;                                                          \
		wn = n;                                                                 \
		goto dynpf_win_w##k;
/* The four even sizes of k whole words (clang-format settles on no layout). */
/* clang-format off */
#define DYNPF_WIN_FILL4(k)                                                  \
	DYNPF_WIN_FILL(8 * k, k) DYNPF_WIN_FILL(8 * k + 2, k)               \
	DYNPF_WIN_FILL(8 * k + 4, k) DYNPF_WIN_FILL(8 * k + 6, k)
/* The shared copy's entry for k whole words: it copies word k - 1, then on. */
#define DYNPF_WIN_WORD(k) \
	dynpf_win_w##k : ((dynpf_win_word *)area->b)[k - 1] = ((const dynpf_win_word *)w)[k - 1];
/* clang-format on */

/*
 * len: the packet's length, from the context where the hook has it (linear
 * XDP: data_end - data; TC: skb->len), else bpf_dynptr_size() (9 ns).
 * head, head_end: the bytes of the packet's start that the hook's context
 * points at directly (ctx->data to ctx->data_end: an XDP frame's linear
 * part, an skb's head), the same bytes a slice without a buffer would
 * return; NULL, NULL where there is no such context: then sliced.
 * ctx: the hook's context, which the dynptr is made from (DYNPF_DP_LAZY).
 */
dynpf_inline void dynpf_cur_init(struct dynpf_cursor *c, const struct bpf_dynptr *dp,
				 struct dynpf_area *area, struct dynpf_parse_cfg cfg, __u32 len,
				 const __u8 *head, const __u8 *head_end, void *ctx)
{
	const void *w = NULL;
	__u32 wn;

	*c = (struct dynpf_cursor){ .src = dp,
				    .area = area,
				    .len = len,
				    .end = len,
				    .max_ext = cfg.max_ext,
				    .max_stacks = cfg.max_stacks };
#ifdef DYNPF_DP_LAZY
	c->ctx = ctx;
#else
	(void)ctx;
#endif
	/*
	 * The first window, at the start of the packet: its bytes in the
	 * hook's linear head, copied by straight-line loads and stores (a few
	 * ns). The copy's size must be a constant for the verifier (a packet
	 * pointer's range, a slice's size), so a packet shorter than the
	 * window is copied whole from a ladder of sizes, every even length
	 * from 14 to 254 (a packet of odd length leaves its last byte to a
	 * refill, should a header need it). bpf_dynptr_read() costs about two
	 * slices (measured: the window of a 74-byte SYN 38 -> 18 ns on XDP,
	 * with the length from the context), and a slice, a kfunc's call and
	 * return through this CPU's return thunk, about 15 ns more than the
	 * head's bounds check: with the head instead of a slice, every hook's
	 * packet 12-17 ns less (`syn`, 0 rules, the least of 20 interleaved
	 * test runs: xdp 121/135 -> 106/114 ns, xdp.frags 126/129 -> 109/117,
	 * tc 118/130 -> 102/101; docs/bpf-notes.md). The head holds what a
	 * slice without a buffer would return, and where the bytes are not
	 * all there (a multi-buffer frame's or a paged skb's head shorter
	 * than them) the window is read, as when such a slice is NULL.
	 * The cases share one copy, entered at the word their size ends in
	 * (Duff's device, with labels), its last n % 8 bytes one overlapping
	 * word: against a copy of its own in each case (which clang already
	 * partly merged), the verifier walks dynpf_xdp_frags 676k -> 511k
	 * instructions, the TC programs 561k -> 510k, dynpf_xdp 540k -> 559k;
	 * dynpf_xdp's code 1 KB smaller; in test runs within the noise
	 * (docs/bpf-notes.md). Each case tests for the head first and slices
	 * without one: no caller of the packet programs lacks it, but without
	 * that test (a plain bounds check) the verifier walked dynpf_xdp_frags
	 * 848k instructions instead of 530k, the TC programs 881k instead of
	 * 535k (so did a check that breaks out of the case: 921k for TC).
	 */
	area->wbase = 0;
	area->wlen = 0; /* until filled: a failed fill is tried again, and fails */
	if (len >= DYNPF_WIN) {
		if (head)
			w = head + DYNPF_WIN <= head_end ? head : NULL;
		else
			w = (DYNPF_DP_MAKE(ctx, dp), bpf_dynptr_slice(dp, 0, NULL, DYNPF_WIN));
		if (w) {
			dynpf_win_copy(area->b, w, DYNPF_WIN);
			area->wlen = DYNPF_WIN;
		}
	} else {
		/* clang-format off */
		switch (len & ~1u) {
			DYNPF_WIN_FILL(14, 1)
			DYNPF_WIN_FILL4(2) DYNPF_WIN_FILL4(3) DYNPF_WIN_FILL4(4)
			DYNPF_WIN_FILL4(5) DYNPF_WIN_FILL4(6) DYNPF_WIN_FILL4(7)
			DYNPF_WIN_FILL4(8) DYNPF_WIN_FILL4(9) DYNPF_WIN_FILL4(10)
			DYNPF_WIN_FILL4(11) DYNPF_WIN_FILL4(12) DYNPF_WIN_FILL4(13)
			DYNPF_WIN_FILL4(14) DYNPF_WIN_FILL4(15) DYNPF_WIN_FILL4(16)
			DYNPF_WIN_FILL4(17) DYNPF_WIN_FILL4(18) DYNPF_WIN_FILL4(19)
			DYNPF_WIN_FILL4(20) DYNPF_WIN_FILL4(21) DYNPF_WIN_FILL4(22)
			DYNPF_WIN_FILL4(23) DYNPF_WIN_FILL4(24) DYNPF_WIN_FILL4(25)
			DYNPF_WIN_FILL4(26) DYNPF_WIN_FILL4(27) DYNPF_WIN_FILL4(28)
			DYNPF_WIN_FILL4(29) DYNPF_WIN_FILL4(30) DYNPF_WIN_FILL4(31)
		}
		goto dynpf_win_done;
		DYNPF_WIN_WORD(31) DYNPF_WIN_WORD(30) DYNPF_WIN_WORD(29)
		DYNPF_WIN_WORD(28) DYNPF_WIN_WORD(27) DYNPF_WIN_WORD(26)
		DYNPF_WIN_WORD(25) DYNPF_WIN_WORD(24) DYNPF_WIN_WORD(23)
		DYNPF_WIN_WORD(22) DYNPF_WIN_WORD(21) DYNPF_WIN_WORD(20)
		DYNPF_WIN_WORD(19) DYNPF_WIN_WORD(18) DYNPF_WIN_WORD(17)
		DYNPF_WIN_WORD(16) DYNPF_WIN_WORD(15) DYNPF_WIN_WORD(14)
		DYNPF_WIN_WORD(13) DYNPF_WIN_WORD(12) DYNPF_WIN_WORD(11)
		DYNPF_WIN_WORD(10) DYNPF_WIN_WORD(9) DYNPF_WIN_WORD(8)
		DYNPF_WIN_WORD(7) DYNPF_WIN_WORD(6) DYNPF_WIN_WORD(5)
		DYNPF_WIN_WORD(4) DYNPF_WIN_WORD(3) DYNPF_WIN_WORD(2)
		DYNPF_WIN_WORD(1)
		/* The last n % 8 bytes: the word ending at n (overlapping). */
		*(dynpf_win_word *)(area->b + wn - 8) =
			*(const dynpf_win_word *)((const __u8 *)w + wn - 8);
		area->wlen = wn;
		/* clang-format on */
	}
dynpf_win_done:
	if (!area->wlen)
		dynpf_cur_refill(c, 0);
}

#else /* native */

dynpf_inline __u64 dynpf_forget(struct dynpf_area *a, __u64 x)
{
	(void)a;
	return x;
}

dynpf_inline int dynpf_cur_copy(const struct dynpf_cursor *c, __u8 *dst, __u32 off, __u32 len)
{
	if (len > DYNPF_AREA_MAX || off > c->len || len > c->len - off)
		return -1;
	memcpy(dst, c->src + off, len);
	return 0;
}

dynpf_inline int dynpf_cur_refill(struct dynpf_cursor *c, __u32 off)
{
	__u32 n;

	if (off > c->len)
		return -1;
	n = c->len - off < DYNPF_WIN ? c->len - off : DYNPF_WIN;
	if (dynpf_cur_copy(c, c->area->b, off, n))
		return -1;
	c->area->wbase = off;
	c->area->wlen = n;
	return 0;
}

/* The same window as in BPF, so both builds read the same bytes the same way. */
dynpf_inline void dynpf_cur_init(struct dynpf_cursor *c, const __u8 *data, __u32 len,
				 struct dynpf_area *area, struct dynpf_parse_cfg cfg)
{
	*c = (struct dynpf_cursor){ .src = data,
				    .area = area,
				    .len = len,
				    .end = len,
				    .max_ext = cfg.max_ext,
				    .max_stacks = cfg.max_stacks };
	dynpf_cur_refill(c, 0);
}

#endif

/* Either build: */

/*
 * The window's offset of the n bytes at packet offset off, after sliding the
 * window there if they are not in it; -1 if the packet does not have them.
 */
dynpf_inline __s64 dynpf_cur_win(struct dynpf_cursor *c, __u32 off, __u32 n)
{
	struct dynpf_area *a = c->area;

	if (!dynpf_cur_need(c, off, n))
		return -1;
	if (off < a->wbase || off - a->wbase > a->wlen || n > a->wlen - (off - a->wbase)) {
		/* need() left n bytes from off: the window gets them all
		 * (n <= DYNPF_WIN). */
		if (dynpf_cur_refill(c, off))
			return -1;
	}
	return off - a->wbase;
}

/* size must be a compile-time constant: the window index is bounded by it. */
#define dynpf_cur_slice(c, off, T) ((const T *)dynpf__slice(c, off, sizeof(T)))

dynpf_inline const void *dynpf__slice(struct dynpf_cursor *c, __u32 off, const __u32 size)
{
	__s64 i = dynpf_cur_win(c, off, size);

	if (i < 0)
		return NULL;
	/*
	 * i + size <= DYNPF_WIN already; for the verifier, bounded by a mask
	 * rather than a branch (the area behind the window leaves room for
	 * any header): no path that cannot be taken. (Not through
	 * dynpf_forget(): a memory round trip per header costs more, 2-7 ns a
	 * packet, than the 9k instructions it saves the verifier.)
	 */
	return c->area->b + (i & (DYNPF_WIN - 1));
}

/*
 * Make the len bytes at off walkable: their offset in area->b (at most
 * DYNPF_WIN), or -1. An area that fits in the window is walked in place
 * there, the window slid to its start if needed; a longer one is copied
 * behind the window.
 */
dynpf_inline int dynpf_cur_fetch_area(struct dynpf_cursor *c, __u32 off, __u32 len)
{
	__s64 i;

	/*
	 * need() first, for every area, though dynpf_cur_win() checks it
	 * again: tried once, the verifier then took dynpf_xdp past 1M
	 * instructions (the bound on len the early test gives is what keeps
	 * its paths together).
	 */
	if (len > DYNPF_AREA_MAX || !dynpf_cur_need(c, off, len))
		return -1;
	if (len <= DYNPF_WIN) {
		i = dynpf_cur_win(c, off, len);
		return i < 0 || i > DYNPF_WIN ? -1 : (int)i;
	}
	return dynpf_cur_copy(c, c->area->b + DYNPF_WIN, off, len) ? -1 : DYNPF_WIN;
}

#endif /* DYNPF_PARSERS_CURSOR_H */
