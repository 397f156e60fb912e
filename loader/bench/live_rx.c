// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf bench --live: the receivers. Putting them on dynpf-rx and taking
 * them off (the empty program and dynpf_xdp in native XDP mode,
 * dynpf_tc_ingress as a tcx link, clsact where there is no tcx), quieting
 * dynpf-tx and turning GRO on on dynpf-rx; then reading what they counted.
 *
 * The attach code (tc_link, quiet_tx, rx_gro_on, rx_detach, rx_attach) is
 * kept as it was written in bench_live.c, to be switched to loader/attach/.
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

#include "attach/clsact.h"
#include "bench.skel.h"
#include "bench/live.h"
#include "dynpf/pkt.h" /* before the skeleton: it uses struct dynpf_parse_cfg */
#include "dynpf.skel.h"
#include "lib/log.h"

/* ---- the test bed ------------------------------------------------------------- */

/*
 * A tcx link of prog_fd on ifindex, in namespace ns; on a kernel without
 * tcx, dynpf's clsact filter (removed with the namespace). The link fd, 0
 * for clsact, or -errno.
 */
static int tc_link(int ns, int prog_fd, int ifindex, bool ingress)
{
	LIBBPF_OPTS(bpf_link_create_opts, lo);
	bool replaced, created;
	int saved, fd, err;

	err = dynpf_netns_enter(ns, &saved);
	if (err)
		return err;
	fd = bpf_link_create(prog_fd, ifindex, ingress ? BPF_TCX_INGRESS : BPF_TCX_EGRESS, &lo);
	if (fd < 0) {
		err = -errno;
		if (err == -EINVAL || err == -EOPNOTSUPP || err == -524 /* ENOTSUPP */) {
			pr_info("bench --live: no tcx links (%s): clsact\n", strerror(-err));
			err = dynpf_clsact_attach(ifindex, ingress, prog_fd, &replaced, &created);
			fd = 0;
		}
	}
	dynpf_netns_leave(&saved);
	return err ?: fd;
}

/*
 * dynpf-tx's own traffic (router solicitations, MLD reports) would reach
 * the receiver: a two-instruction TC_ACT_SHOT on its egress drops it. The
 * generator's frames do not pass there (ndo_xdp_xmit).
 */
int quiet_tx(struct lv_ctx *x)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = TC_ACT_SHOT },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int err;

	x->quiet_prog = bpf_prog_load(BPF_PROG_TYPE_SCHED_CLS, "dynpf_quiet", "GPL", insns,
				      ARRAY_SIZE(insns), NULL);
	if (x->quiet_prog < 0) {
		err = -errno;
		p_err("bench --live: cannot load the program that quiets %s: %s", DYNPF_TB_TX_IF,
		      strerror(-err));
		return err;
	}
	err = tc_link(x->tb.tx_ns, x->quiet_prog, x->tb.tx_ifindex, false);
	if (err < 0) {
		p_err("bench --live: cannot attach the program that quiets %s: %s",
		      DYNPF_TB_TX_IF, strerror(-err));
		return err;
	}
	x->quiet_link = err ?: -1;
	return 0;
}

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
	int saved;

	if (x->rx_link > 0)
		close(x->rx_link);
	if (x->rx_link == 0 && !dynpf_netns_enter(x->tb.rx_ns, &saved)) {
		dynpf_clsact_detach(x->tb.rx_ifindex, true); /* clsact: no tcx */
		dynpf_netns_leave(&saved);
	}
	x->rx_link = -1;
}

/* A link is detached when its fd closes: nothing stays if dynpf dies. */
int rx_attach(struct lv_ctx *x, int conf)
{
	LIBBPF_OPTS(bpf_link_create_opts, lo, .flags = XDP_FLAGS_DRV_MODE);
	const struct lv_conf *c = &lv_confs[conf];
	int fd, prog, saved, err;

	if (c->hook == DYNPF_HOOK_TC_INGRESS) {
		fd = tc_link(x->tb.rx_ns, bpf_program__fd(x->pr.skel->progs.dynpf_tc_ingress),
			     x->tb.rx_ifindex, true);
		if (fd < 0) {
			p_err("bench --live: cannot attach dynpf_tc_ingress to %s: %s",
			      DYNPF_TB_RX_IF, strerror(-fd));
			return fd;
		}
		x->rx_link = fd;
		return 0;
	}
	prog = c->hook ? bpf_program__fd(x->pr.skel->progs.dynpf_xdp)
		       : bpf_program__fd(x->ref->progs.bench_live_drop);

	err = dynpf_netns_enter(x->tb.rx_ns, &saved);
	if (err)
		return err;
	fd = bpf_link_create(prog, x->tb.rx_ifindex, BPF_XDP, &lo);
	err = fd < 0 ? -errno : 0;
	dynpf_netns_leave(&saved);
	if (err) {
		p_err("bench --live: cannot attach %s to %s in native XDP mode: %s",
		      c->hook ? "dynpf_xdp" : "bench_live_drop", DYNPF_TB_RX_IF, strerror(-err));
		return err;
	}
	x->rx_link = fd;
	return 0;
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
