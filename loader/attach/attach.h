/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Putting a program on an interface, the one way dynpf does it (the daemon,
 * replay --iface and --testbed, bench --live):
 *
 * - TC: a tcx link made with bpf_link_create(), which takes the attach type
 *   from its caller; bpf_program__attach_tcx() takes it from the program's
 *   expected attach type, which SEC("tc") leaves at 0 (docs/bpf-notes.md).
 *   On a kernel without tcx (before 6.6), dynpf's cls_bpf filter on the
 *   clsact qdisc instead (clsact.h).
 * - XDP: a link in native or generic mode.
 * - The "quiet" program: everything a sending interface sends by itself
 *   dropped on its egress.
 *
 * The functions on one hook work in the calling thread's network namespace
 * and print nothing: the callers say what failed, in their own words. The
 * receiver and quiet helpers at the end (the test bed's, replay --iface's,
 * bench --live's) enter the interface's namespace themselves.
 */
#ifndef DYNPF_LOADER_ATTACH_H
#define DYNPF_LOADER_ATTACH_H

#include <stdbool.h>
#include <stdint.h>

/* How a TC hook is attached (also the daemon's "tc_attach" setting). */
enum dynpf_tc_mode {
	DYNPF_TC_AUTO,   /* tcx links; clsact where the kernel has no tcx */
	DYNPF_TC_TCX,    /* tcx links only */
	DYNPF_TC_CLSACT, /* a clsact qdisc and a cls_bpf filter only */
};

/* A program on a TC hook: a tcx link, or dynpf's clsact filter. */
struct dynpf_tc_link {
	int fd;        /* the tcx link, -1 if none */
	bool clsact;   /* dynpf's cls_bpf filter on clsact instead */
	bool created;  /* clsact: this attach made the qdisc (it goes with the filter) */
	bool replaced; /* clsact: dynpf's filter was there, its program replaced in place */
	int tcx_err;   /* DYNPF_TC_AUTO: why there is no tcx link (-errno), or 0 */
	int ifindex;
	bool ingress;
};

#define DYNPF_TC_LINK_INIT { .fd = -1 }

/* The errors a tcx link_create gets from a kernel without tcx. */
bool dynpf_no_tcx(int err);

/*
 * prog_fd on the TC ingress or egress hook of ifindex, as mode says; with
 * DYNPF_TC_AUTO, a kernel without tcx gets dynpf's clsact filter (and
 * l->tcx_err says why). 0, or -errno with nothing attached: the clsact
 * filter failed if mode is DYNPF_TC_CLSACT or l->tcx_err is set, else the
 * tcx link.
 */
int dynpf_tc_attach(struct dynpf_tc_link *l, int prog_fd, int ifindex, bool ingress,
		    enum dynpf_tc_mode mode);

/*
 * Off again: the tcx link detached and closed; or dynpf's clsact filter
 * removed, and the qdisc too if this attach made it (dynpf_clsact_release).
 * Nothing on a link attached nowhere. 0, or the first -errno.
 */
int dynpf_tc_detach(struct dynpf_tc_link *l);

enum dynpf_xdp_mode {
	DYNPF_XDP_NATIVE,  /* driver mode */
	DYNPF_XDP_GENERIC, /* SKB mode */
};

/* "native" or "generic". */
const char *dynpf_xdp_mode_name(enum dynpf_xdp_mode mode);

/* The XDP_FLAGS_* of a mode (XDP_FLAGS_DRV_MODE or XDP_FLAGS_SKB_MODE). */
uint32_t dynpf_xdp_mode_flags(enum dynpf_xdp_mode mode);

/*
 * prog_fd on ifindex as an XDP link (bpf_link_create(BPF_XDP) with the mode
 * flag bpf_xdp_attach() would pass): the kernel detaches a link when its
 * last fd closes, so no program stays on the interface if dynpf dies, even
 * of SIGKILL. The link's fd, or -errno.
 */
int dynpf_xdp_link(int prog_fd, int ifindex, enum dynpf_xdp_mode mode);

/* What an XDP attach error means, as ": ..." to end a message with, or "". */
const char *dynpf_xdp_attach_hint(int err);

/*
 * A sending interface's own traffic (IPv6 router solicitations, MLD
 * reports, neighbour discovery ...) would reach the receiver between the
 * frames sent on purpose, which bypass the egress hook (PACKET_QDISC_BYPASS,
 * ndo_xdp_xmit): a two-instruction TC_ACT_SHOT program on its egress drops
 * all of it.
 */
struct dynpf_quiet {
	int prog; /* the program, -1 if not loaded */
	struct dynpf_tc_link link;
};

#define DYNPF_QUIET_INIT { .prog = -1, .link = DYNPF_TC_LINK_INIT }

/* Load it and attach it to the egress of ifindex. 0, or -errno: the load
 * failed if q->prog is -1, else the attach. */
int dynpf_quiet_attach(struct dynpf_quiet *q, int ifindex);

/* Detach and close it (in the interface's namespace). */
void dynpf_quiet_detach(struct dynpf_quiet *q);

/*
 * The quiet program on the egress of ifindex in network namespace ns (an
 * fd, -1: this one). What fails is said, naming ifname. 0 or -errno.
 */
int dynpf_quiet_on(struct dynpf_quiet *q, int ns, int ifindex, const char *ifname);
void dynpf_quiet_off(struct dynpf_quiet *q, int ns);

/*
 * A receiver: a program on an interface in network namespace ns (an fd, -1:
 * this one), an XDP link or, on TC ingress, a tcx link or dynpf's clsact
 * filter; nothing stays on the interface when the process dies (links) or
 * the test bed's namespaces go (clsact).
 */
struct dynpf_rx {
	int ns;
	int ifindex;
	int xdp_link; /* -1 if none */
	struct dynpf_tc_link tc;
};

#define DYNPF_RX_INIT { .ns = -1, .xdp_link = -1, .tc = DYNPF_TC_LINK_INIT }

/*
 * prog_fd on rx->ifindex in rx->ns: on TC ingress if tc, else as an XDP link
 * in xmode. A kernel without tcx is said (info). 0 or -errno, nothing
 * attached: the caller says what failed.
 */
int dynpf_rx_attach(struct dynpf_rx *rx, int prog_fd, bool tc, enum dynpf_xdp_mode xmode);
void dynpf_rx_detach(struct dynpf_rx *rx);

#endif
