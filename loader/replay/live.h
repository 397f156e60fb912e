/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
#ifndef DYNPF_LIVE_H
#define DYNPF_LIVE_H

#include <stdbool.h>

#include "dynpf/pkt.h"
#include "replay/report.h"

/* Where replay --iface attaches dynpf on the receiving interface. */
enum dynpf_live_mode {
	DYNPF_LIVE_XDP,         /* XDP in native (driver) mode */
	DYNPF_LIVE_XDP_GENERIC, /* XDP in generic (SKB) mode */
	DYNPF_LIVE_TC,          /* TC ingress: a tcx link, or clsact */
};

struct dynpf_live_opts {
	enum dynpf_live_mode mode;
	bool testbed;            /* make the namespaces and the veth pair (testbed.h) */
	const char *iface;       /* without testbed: the receiving interface */
	const char *peer;        /* and the one to send from (NULL: iface's veth peer) */
	unsigned int mtu;        /* testbed: the veth MTU */
	unsigned int timeout_ms; /* how long a frame's record is waited for */
	/*
	 * XDP modes: DYNPF_HOOK_XDP or DYNPF_HOOK_XDP_FRAGS, the program to
	 * attach; 0: xdp.frags when a frame can be longer than one page's
	 * buff (MTU above 3506), else xdp.
	 */
	int xdp_prog;
	struct dynpf_parse_cfg cfg;
};

/* Test-bed MTU: jumbo frames, so XDP runs multi-buffer and TC non-linear. */
#define DYNPF_LIVE_MTU_DEFAULT 9000
#define DYNPF_LIVE_TIMEOUT_DEFAULT 200

/*
 * Set everything up: the test bed (or the given interfaces), dynpf's
 * programs loaded with the trace on and attached to the receiving
 * interface, the AF_PACKET socket on the sending one, and handlers that
 * tear it all down on SIGINT, SIGTERM, SIGHUP and SIGPIPE. Fills walk with the live
 * hook for dynpf_walk_capture(). 0 or -errno (after tearing down).
 */
int dynpf_live_start(const struct dynpf_live_opts *o, struct dynpf_walk_live *walk);

/* Detach, close, remove the test bed; then die of a signal that came meanwhile. */
void dynpf_live_stop(void);

/* The hook name of a mode's records: xdp-live, xdp-generic, tc-live. */
const char *dynpf_live_hook_name(enum dynpf_live_mode mode);

#endif
