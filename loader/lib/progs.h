/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
#ifndef DYNPF_PROGS_H
#define DYNPF_PROGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dynpf/ctrl.h"

struct bpf_object;
struct bpf_program;
struct dynpf_bpf;
struct dynpf_lazy_bpf;
struct dynpf_lazy_tc_bpf;
struct ring_buffer;

/* The product's packet programs (dynpf_lazy_open()). */
struct dynpf_lazy {
	struct dynpf_lazy_bpf *xdp;   /* dynpf_xdp, dynpf_xdp_frags; NULL: none */
	struct dynpf_lazy_tc_bpf *tc; /* dynpf_tc_ingress, dynpf_tc_egress; NULL: none */
};

/* The packet programs, loaded for test runs with the trace ring on. */
struct dynpf_progs {
	/* The maps and the drain (.output/dynpf.bpf.o). */
	struct dynpf_bpf *skel;
	/* The packet programs of the hooks loaded, on skel's maps. */
	struct dynpf_lazy lazy;
	/*
	 * Bytes of an xdp-frags test-run frame that go into the linear part;
	 * the rest goes into fragments. 0: the kernel's maximum (3520 here).
	 * Smaller values put the fragment boundary inside the headers.
	 */
	uint32_t xdp_linear;
	struct ring_buffer *rb;
	struct dynpf_pkt *last;       /* the record the last run emitted */
	struct dynpf_verdict *last_v; /* and its verdict */
	int nrec;                     /* records received by the last run */
	/*
	 * If set, every trace record goes to it instead (replay --iface:
	 * records of packets sent on an interface, not of test runs).
	 */
	void (*on_rec)(void *ctx, const void *rec, size_t size);
	void *on_rec_ctx;
};

/*
 * Check what dynpf needs before touching BPF: root, BTF, the dynptr kfuncs.
 * Prints one clear error and returns -errno when something is missing.
 */
int dynpf_probe_kernel(void);

/*
 * Does this process have the capabilities to load and attach the programs
 * (CAP_BPF, CAP_PERFMON, CAP_NET_ADMIN, or CAP_SYS_ADMIN), and CAP_SYS_ADMIN
 * too when sys_admin says what for (setns, libxdp's attach)? 0, or -EPERM
 * after saying which it lacks.
 */
int dynpf_check_caps(const char *sys_admin);

/* Is cap (CAP_*) in this process's effective set? */
bool dynpf_has_cap(int cap);

/* What the packet programs do with each packet's parse (the dynpf_trace ring). */
enum dynpf_trace {
	DYNPF_TRACE_OFF,      /* nothing: the data path of the product */
	DYNPF_TRACE_TEST_RUN, /* a record, read right after each test run: no reader woken */
	DYNPF_TRACE_LIVE,     /* a record, and the reader that polls the ring woken */
};

/*
 * max_rules: rule ids the rule tables hold (0: none; rules cannot be
 * loaded). The tables are sized to it: an entry pool of twice the ids,
 * 2 * 240 bytes per id, and the per-CPU counters.
 */
int dynpf_progs_open(struct dynpf_progs *pr, enum dynpf_trace trace,
		     const struct dynpf_parse_cfg *cfg, uint32_t max_rules);

/*
 * The same, with only the packet programs of hooks loaded (bits
 * 1 << DYNPF_HOOK_*; 0: all of them): each costs the verifier about as much
 * as the others together, so a run of one hook loads three times faster.
 */
int dynpf_progs_open_hooks(struct dynpf_progs *pr, enum dynpf_trace trace,
			   const struct dynpf_parse_cfg *cfg, uint32_t max_rules,
			   unsigned int hooks);

/*
 * The programs of hooks again, on the maps of `of` (its rule set, its
 * counters) and with its settings, but without the trace: what the data
 * path runs, the parse no larger than the rules need (DYNPF_NEED_*).
 * Replay compares its verdicts with the traced ones. 0 or -errno (said).
 */
int dynpf_progs_open_lean(struct dynpf_progs *lean, struct dynpf_progs *of, unsigned int hooks);

/* The loaded program of hook (DYNPF_HOOK_*) in pr, or NULL. */
struct bpf_program *dynpf_progs_prog(struct dynpf_progs *pr, int hook);

/*
 * Before obj's load: every map of obj but its internal ones (.rodata, .bss)
 * is from's of the same name (loaded). 0, or -ENOENT for one from lacks.
 */
int dynpf_reuse_maps(struct bpf_object *obj, const struct bpf_object *from);

/* Before obj's load: its one-byte read-only global name set to val; -ENOENT
 * if it has none. */
int dynpf_set_rodata_u8(struct bpf_object *obj, const char *name, __u8 val);

/* Before obj's load: its read-only globals as from's, where they have the
 * same name and size. 0 or -ENOENT (no .rodata or BTF). */
int dynpf_copy_rodata(struct bpf_object *obj, const struct bpf_object *from);

/*
 * The product's packet programs of hooks (bits 1 << DYNPF_HOOK_*; 0: all)
 * in *out: the lazy builds of bpf/dynpf.bpf.c (DYNPF_DP_LAZY, their dynptr
 * made at each read: parsers/cursor.h), one object for the XDP programs and
 * one for the TC ones, on every map of skel (loaded) and with its settings
 * (trace, parse limits, rule capacity). flags: DYNPF_LAZY_TCX, the TC
 * programs for tcx links (their expected attach types). 0 or -errno (said).
 */
#define DYNPF_LAZY_TCX 1u
int dynpf_lazy_open(struct dynpf_bpf *skel, unsigned int hooks, unsigned int flags,
		    struct dynpf_lazy *out);
void dynpf_lazy_close(struct dynpf_lazy *l);
/* The loaded program of hook in l, or NULL. */
struct bpf_program *dynpf_lazy_prog(const struct dynpf_lazy *l, int hook);
/* The object of l's TC (tc 1) or XDP programs, or NULL. */
struct bpf_object *dynpf_lazy_obj(const struct dynpf_lazy *l, int tc);

/*
 * Before skel's load: none of its packet programs, which make their dynptr
 * before the parse (the product's come from dynpf_lazy_open()); its maps
 * and its drain only.
 */
void dynpf_skel_maps_only(struct dynpf_bpf *skel);

/* One test run of the hook's program of pr: its verdict, from dynpf_verdicts. */
enum dynpf_run_result dynpf_progs_verdict(struct dynpf_progs *pr, int hook, const void *data,
					  uint32_t len, struct dynpf_verdict *v);

/* Size the rule tables of an opened, not yet loaded object. */
int dynpf_size_rule_maps(struct dynpf_bpf *skel, uint32_t max_rules);
void dynpf_progs_close(struct dynpf_progs *pr);

/*
 * OWN_CHECK: parsed, but what the hook got is not the frame (the kernel
 * changed it on the way); the runner checked the record against the native
 * parse of what the hook got and says so in the reason. Not comparable with
 * the capture's parse.
 */
enum dynpf_run_result {
	DYNPF_RUN_OK = 0,
	DYNPF_RUN_SKIPPED = 1,
	DYNPF_RUN_OWN_CHECK = 2,
	DYNPF_RUN_ERROR = -1,
};

/*
 * Run one packet through the program of hook (DYNPF_HOOK_*) with
 * BPF_PROG_TEST_RUN and fetch its parse result from the trace ring. A packet
 * the kernel cannot build for that hook is SKIPPED, with the reason.
 */
enum dynpf_run_result dynpf_progs_run(struct dynpf_progs *pr, int hook, const void *data,
				      uint32_t len, struct dynpf_pkt *out, char *reason,
				      size_t reason_len);

/* Sum the per-CPU counters of hook (DYNPF_HOOK_*), all interfaces. 0 or -errno. */
int dynpf_progs_read_stats(struct dynpf_progs *pr, int hook, struct dynpf_stats *out);

/* Add the per-CPU counters of one interface slot and hook of the dynpf_stats
 * map map_fd to *out. 0 or -errno. */
int dynpf_stats_read(int map_fd, uint32_t slot, int hook, struct dynpf_stats *out);

/* Largest linear XDP test-run buff: PAGE_SIZE - headroom - shared info. */
#define DYNPF_XDP_TEST_LINEAR_MAX 3520
/* Fragments of an xdp.frags test-run buff at most (MAX_SKB_FRAGS), 4096 bytes each. */
#define DYNPF_XDP_TEST_FRAGS_MAX 17

/* The ifindex test runs give the programs: the namespace's loopback device
 * (the kernel's default when the context names no interface). */
#define DYNPF_TEST_RUN_IFINDEX 1

#endif
