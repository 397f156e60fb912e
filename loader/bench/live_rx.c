// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf bench --live: the receivers. Putting them on dynpf-rx and taking
 * them off (the empty program and dynpf_xdp in native XDP mode,
 * dynpf_tc_ingress as a tcx link, clsact where there is no tcx: attach/'s
 * receiver) and turning GRO on on dynpf-rx; then reading what they counted.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/bpf.h>
#include <linux/ethtool.h>
#include <linux/if_link.h>
#include <linux/pkt_cls.h>
#include <linux/sockios.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bench.skel.h"
#include "bench/live.h"
#include "dynpf/pkt.h" /* before the skeleton: it uses struct dynpf_parse_cfg */
#include "dynpf.skel.h"
#include "lib/log.h"

/* ---- the test bed ------------------------------------------------------------- */

/*
 * GRO on dynpf-rx (the legacy ETHTOOL_SGRO): a veth queue takes redirected
 * frames only with NAPI on, which an XDP program turns on, and for the TC
 * runs GRO does.
 */
int rx_gro_on(struct lv_ctx *x)
{
	struct ethtool_value ev = { .cmd = ETHTOOL_SGRO, .data = 1 };
	struct ifreq ifr = { 0 };
	int saved, fd, err;

	err = dynpf_netns_enter(x->tb.rx_ns, &saved);
	if (err)
		return err;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	err = fd < 0 ? -errno : 0;
	if (!err) {
		snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", DYNPF_TB_RX_IF);
		ifr.ifr_data = (void *)&ev;
		if (ioctl(fd, SIOCETHTOOL, &ifr))
			err = -errno;
		close(fd);
	}
	dynpf_netns_leave(&saved);
	if (err)
		p_err("bench --live: cannot turn GRO on on %s: %s", DYNPF_TB_RX_IF, strerror(-err));
	return err;
}

/* ---- the receivers ------------------------------------------------------------ */

void rx_detach(struct lv_ctx *x)
{
	dynpf_rx_detach(&x->rx);
}

/* A link is detached when its fd closes: nothing stays if dynpf dies. */
int rx_attach(struct lv_ctx *x, int conf)
{
	const struct lv_conf *c = &lv_confs[conf];
	bool tc = c->hook == DYNPF_HOOK_TC_INGRESS;
	const char *name = tc ? "dynpf_tc_ingress" : c->hook ? "dynpf_xdp" : "bench_live_drop";
	int prog, err;

	prog = tc                        ? bpf_program__fd(dynpf_progs_prog(&x->pr, c->hook))
	       : c->hook && x->on_versus ? x->versus_fd
	       : c->hook                 ? bpf_program__fd(dynpf_progs_prog(&x->pr, c->hook))
					 : bpf_program__fd(x->ref->progs.bench_live_drop);
	x->rx.ns = x->tb.rx_ns;
	x->rx.ifindex = x->tb.rx_ifindex;
	err = dynpf_rx_attach(&x->rx, prog, tc, DYNPF_XDP_NATIVE);
	if (err && tc)
		p_err("bench --live: cannot attach %s to %s: %s", name, DYNPF_TB_RX_IF,
		      strerror(-err));
	else if (err)
		p_err("bench --live: cannot attach %s to %s in native XDP mode: %s", name,
		      DYNPF_TB_RX_IF, strerror(-err));
	return err;
}

/* ---- their counters ------------------------------------------------------------ */

/* What the receiver of conf counted so far, per terminal action. */
int lv_rx_read(struct lv_ctx *x, int conf, uint64_t act[DYNPF_STATS_ACTS])
{
	const struct lv_conf *c = &lv_confs[conf];
	struct dynpf_stats st = { 0 };
	uint32_t zero = 0;
	int err;

	memset(act, 0, DYNPF_STATS_ACTS * sizeof(*act));
	if (c->hook) {
		err = dynpf_stats_read(bpf_map__fd(x->pr.skel->maps.dynpf_stats), 0, c->hook, &st);
		if (err) {
			p_err("bench --live: cannot read dynpf's counters: %s", strerror(-err));
			return err;
		}
		memcpy(act, st.act, sizeof(st.act));
		return 0;
	}
	if (bpf_map__lookup_elem(x->ref->maps.bench_live_rx, &zero, sizeof(zero), x->percpu,
				 x->ncpus * sizeof(*x->percpu), 0)) {
		err = -errno;
		p_err("bench --live: cannot read the baseline's counter: %s", strerror(-err));
		return err;
	}
	for (int i = 0; i < x->ncpus; i++)
		act[DYNPF_ACT_DROP] += x->percpu[i];
	return 0;
}

/* The packets rule id classified, every CPU. */
int lv_rule_count(struct lv_ctx *x, uint32_t id, uint64_t *out)
{
	*out = 0;
	if (bpf_map__lookup_elem(x->pr.skel->maps.dynpf_rule_stats, &id, sizeof(id), x->rstats,
				 x->ncpus * sizeof(*x->rstats), 0)) {
		int err = -errno;

		p_err("bench --live: cannot read the counters of rule %u: %s", id, strerror(-err));
		return err;
	}
	for (int i = 0; i < x->ncpus; i++)
		*out += x->rstats[i].packets;
	return 0;
}

uint64_t lv_sum_acts(const uint64_t *a)
{
	uint64_t n = 0;

	for (int i = 0; i < DYNPF_STATS_ACTS; i++)
		n += a[i];
	return n;
}
