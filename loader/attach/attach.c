// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Putting a program on an interface (attach.h): TC as a tcx link or, on a
 * kernel without tcx, dynpf's clsact filter (the one place that decides);
 * XDP as a link; the quiet program on a sender's egress.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <linux/if_link.h>
#include <linux/pkt_cls.h>

#include <bpf/bpf.h>

#include "attach/attach.h"
#include "attach/clsact.h"
#include "lib/log.h"
#include "lib/netns.h"

bool dynpf_no_tcx(int err)
{
	/* link_create refuses an attach type the kernel does not know. */
	return err == -EINVAL || err == -EOPNOTSUPP || err == -524 /* ENOTSUPP */;
}

static int clsact_attach(struct dynpf_tc_link *l, int prog_fd)
{
	int err;

	err = dynpf_clsact_attach(l->ifindex, l->ingress, prog_fd, &l->replaced, &l->created);
	if (err) {
		if (l->created)
			dynpf_clsact_remove_if_empty(l->ifindex);
		l->created = l->replaced = false;
		return err;
	}
	l->clsact = true;
	return 0;
}

int dynpf_tc_attach(struct dynpf_tc_link *l, int prog_fd, int ifindex, bool ingress,
		    enum dynpf_tc_mode mode)
{
	LIBBPF_OPTS(bpf_link_create_opts, lo);
	int err;

	*l = (struct dynpf_tc_link)DYNPF_TC_LINK_INIT;
	l->ifindex = ifindex;
	l->ingress = ingress;
	if (mode == DYNPF_TC_CLSACT)
		return clsact_attach(l, prog_fd);
	l->fd = bpf_link_create(prog_fd, ifindex, ingress ? BPF_TCX_INGRESS : BPF_TCX_EGRESS, &lo);
	if (l->fd >= 0)
		return 0;
	err = -errno;
	if (mode != DYNPF_TC_AUTO || !dynpf_no_tcx(err))
		return err;
	l->tcx_err = err;
	return clsact_attach(l, prog_fd);
}

int dynpf_tc_detach(struct dynpf_tc_link *l)
{
	int err = 0, r;

	if (l->fd >= 0) {
		bpf_link_detach(l->fd);
		close(l->fd);
	} else if (l->clsact) {
		err = dynpf_clsact_detach(l->ifindex, l->ingress);
		if (err == -ENOENT)
			err = 0;
		r = l->created ? dynpf_clsact_release(l->ifindex, l->ingress) : 0;
		if (r < 0 && !err)
			err = r;
	}
	l->fd = -1;
	l->clsact = l->created = l->replaced = false;
	return err;
}

const char *dynpf_xdp_mode_name(enum dynpf_xdp_mode mode)
{
	return mode == DYNPF_XDP_GENERIC ? "generic" : "native";
}

uint32_t dynpf_xdp_mode_flags(enum dynpf_xdp_mode mode)
{
	return mode == DYNPF_XDP_GENERIC ? XDP_FLAGS_SKB_MODE : XDP_FLAGS_DRV_MODE;
}

int dynpf_xdp_link(int prog_fd, int ifindex, enum dynpf_xdp_mode mode)
{
	LIBBPF_OPTS(bpf_link_create_opts, lo, .flags = dynpf_xdp_mode_flags(mode));
	int fd = bpf_link_create(prog_fd, ifindex, BPF_XDP, &lo);

	return fd < 0 ? -errno : fd;
}

const char *dynpf_xdp_attach_hint(int err)
{
	switch (err) {
	case -EOPNOTSUPP:
		return ": the driver has no native XDP (try --mode xdp-generic)";
	case -ERANGE:
		return ": the MTU is too large for this program (veth: the peer's MTU)";
	case -EBUSY:
	case -EEXIST:
		return ": another XDP program is attached";
	}
	return "";
}

int dynpf_quiet_attach(struct dynpf_quiet *q, int ifindex)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = TC_ACT_SHOT },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int fd;

	fd = bpf_prog_load(BPF_PROG_TYPE_SCHED_CLS, "dynpf_quiet", "GPL", insns,
			   sizeof(insns) / sizeof(insns[0]), NULL);
	if (fd < 0)
		return -errno;
	q->prog = fd;
	return dynpf_tc_attach(&q->link, q->prog, ifindex, false, DYNPF_TC_AUTO);
}

void dynpf_quiet_detach(struct dynpf_quiet *q)
{
	dynpf_tc_detach(&q->link);
	if (q->prog >= 0)
		close(q->prog);
	q->prog = -1;
}

/* A kernel without tcx (before Linux 6.6): the TC hook got dynpf's clsact filter. */
static void say_no_tcx(const struct dynpf_tc_link *l)
{
	if (l->tcx_err)
		pr_info("tcx links not supported (%s): attaching with clsact\n",
			strerror(-l->tcx_err));
}

int dynpf_quiet_on(struct dynpf_quiet *q, int ns, int ifindex, const char *ifname)
{
	int saved, err;

	err = dynpf_netns_enter(ns, &saved);
	if (err)
		return err;
	err = dynpf_quiet_attach(q, ifindex);
	say_no_tcx(&q->link);
	dynpf_netns_leave(&saved);
	if (err && q->prog < 0)
		p_err("cannot load the program that quiets %s: %s", ifname, strerror(-err));
	else if (err)
		p_err("cannot attach the program that quiets %s to its egress: %s", ifname,
		      strerror(-err));
	return err;
}

void dynpf_quiet_off(struct dynpf_quiet *q, int ns)
{
	int saved;

	if (!dynpf_netns_enter(ns, &saved)) {
		dynpf_quiet_detach(q);
		dynpf_netns_leave(&saved);
	}
}

int dynpf_rx_attach(struct dynpf_rx *rx, int prog_fd, bool tc, enum dynpf_xdp_mode xmode)
{
	int saved, err;

	err = dynpf_netns_enter(rx->ns, &saved);
	if (err)
		return err;
	if (tc) {
		err = dynpf_tc_attach(&rx->tc, prog_fd, rx->ifindex, true, DYNPF_TC_AUTO);
		say_no_tcx(&rx->tc);
	} else {
		rx->xdp_link = dynpf_xdp_link(prog_fd, rx->ifindex, xmode);
		err = rx->xdp_link < 0 ? rx->xdp_link : 0;
	}
	dynpf_netns_leave(&saved);
	return err;
}

void dynpf_rx_detach(struct dynpf_rx *rx)
{
	int saved;

	/* A link goes when its fd closes, wherever this thread is. */
	if (rx->xdp_link >= 0)
		close(rx->xdp_link);
	rx->xdp_link = -1;
	if (!dynpf_netns_enter(rx->ns, &saved)) {
		dynpf_tc_detach(&rx->tc);
		dynpf_netns_leave(&saved);
	}
}
