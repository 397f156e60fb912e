/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
#ifndef DYNPF_TESTBED_H
#define DYNPF_TESTBED_H

#include <net/if.h>
#include <stdbool.h>

#include "lib/netns.h"

/*
 * replay --testbed: two network namespaces, dynpf-tb-PID-rx and
 * dynpf-tb-PID-tx (under /run/netns, as `ip netns add` makes them), and a
 * veth pair between them, one end in each: frames sent on the tx end arrive
 * on the rx end and nowhere else. Removing the two namespaces removes the
 * veth pair and everything attached to it.
 */
#define DYNPF_TB_PREFIX "dynpf-tb-"
#define DYNPF_TB_RX_IF "dynpf-rx"
#define DYNPF_TB_TX_IF "dynpf-tx"

struct dynpf_testbed {
	char ns_rx[64], ns_tx[64]; /* paths under /run/netns, "" when not made */
	int rx_ns, tx_ns;          /* namespace fds, -1 when not open */
	int rx_ifindex, tx_ifindex;
	unsigned int mtu;
};

/*
 * Remove the test beds of dynpf runs that died without removing theirs (a
 * SIGKILL): a dynpf-tb-PID-* namespace whose PID is no longer a dynpf.
 * Returns how many namespaces were removed.
 */
int dynpf_testbed_remove_stale(void);

/*
 * Make the namespaces and the veth pair with its addresses, links down (so
 * that programs can be attached before any frame flows). 0 or -errno.
 */
int dynpf_testbed_create(struct dynpf_testbed *tb, unsigned int mtu);

/* Set both links up. 0 or -errno. */
int dynpf_testbed_up(struct dynpf_testbed *tb);

/*
 * Unmount and delete both namespaces (the kernel then deletes the veth
 * pair). Safe on a partly made or already removed test bed.
 */
void dynpf_testbed_destroy(struct dynpf_testbed *tb);

/*
 * The same with async-signal-safe calls only (umount2, unlink): for a
 * signal handler. The namespaces die when this process does.
 */
void dynpf_testbed_destroy_signal_safe(const struct dynpf_testbed *tb);

/*
 * SIGINT, SIGTERM, SIGHUP and SIGPIPE (`dynpf ... | head`) while a test bed
 * may stand. The first is only noted: dynpf_tb_signalled() returns it, and
 * blocking calls return EINTR (no SA_RESTART), so the run unwinds and tears
 * down in its normal context. A second removes the bed given to
 * dynpf_tb_signals_guard() with async-signal-safe calls and dies of it.
 */
void dynpf_tb_signals_catch(void);
void dynpf_tb_signals_guard(const struct dynpf_testbed *tb); /* NULL: none */
void dynpf_tb_signals_restore(void);
int dynpf_tb_signalled(void);

/* IFLA_LINK of an interface in the current namespace (a veth: its peer). */
int dynpf_if_link(int ifindex);
int dynpf_if_mtu(int ifindex);

#endif
