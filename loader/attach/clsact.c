// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* TC through clsact and cls_bpf: the tcx fallback (clsact.h). */
#include <errno.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "attach/clsact.h"

static void hook_of(struct bpf_tc_hook *h, int ifindex, bool ingress)
{
	memset(h, 0, sizeof(*h));
	h->sz = sizeof(*h);
	h->ifindex = ifindex;
	h->attach_point = ingress ? BPF_TC_INGRESS : BPF_TC_EGRESS;
}

static void opts_of(struct bpf_tc_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->sz = sizeof(*o);
	o->handle = DYNPF_CLSACT_HANDLE;
	o->priority = DYNPF_CLSACT_PRIO;
}

int dynpf_clsact_query(int ifindex, bool ingress, uint32_t *prog_id)
{
	struct bpf_tc_hook h;
	struct bpf_tc_opts o;
	int err;

	*prog_id = 0;
	/* No clsact qdisc, no filter: asked quietly first, as libbpf logs the
	 * kernel's complaint on every interface without one. */
	if (dynpf_clsact_nfilters(ifindex) <= 0)
		return 0;
	hook_of(&h, ifindex, ingress);
	opts_of(&o);
	err = bpf_tc_query(&h, &o);
	if (err == -ENOENT || err == -EINVAL) /* no such filter, or no clsact */
		return 0;
	if (err)
		return err;
	*prog_id = o.prog_id;
	return 0;
}

int dynpf_clsact_attach(int ifindex, bool ingress, int prog_fd, bool *replaced, bool *created)
{
	struct bpf_tc_hook h;
	struct bpf_tc_opts o;
	uint32_t id;
	int err;

	*replaced = *created = false;
	hook_of(&h, ifindex, ingress);
	err = bpf_tc_hook_create(&h);
	if (err && err != -EEXIST)
		return err;
	*created = !err;
	err = dynpf_clsact_query(ifindex, ingress, &id);
	if (err)
		return err;
	*replaced = id != 0;
	opts_of(&o);
	o.prog_fd = prog_fd;
	o.flags = BPF_TC_F_REPLACE;
	return bpf_tc_attach(&h, &o);
}

int dynpf_clsact_detach(int ifindex, bool ingress)
{
	struct bpf_tc_hook h;
	struct bpf_tc_opts o;
	uint32_t id;
	int err;

	err = dynpf_clsact_query(ifindex, ingress, &id);
	if (err)
		return err;
	if (!id)
		return -ENOENT;
	hook_of(&h, ifindex, ingress);
	opts_of(&o);
	return bpf_tc_detach(&h, &o);
}

/* RTM_GETTFILTER dump of one clsact hook: its filters (tcm_handle != 0). */
static int count_filters(int fd, int ifindex, uint32_t parent)
{
	struct {
		struct nlmsghdr n;
		struct tcmsg t;
	} req = {
		.n = { .nlmsg_len = NLMSG_LENGTH(sizeof(struct tcmsg)),
		       .nlmsg_type = RTM_GETTFILTER,
		       .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
		       .nlmsg_seq = 1 },
		.t = { .tcm_family = AF_UNSPEC, .tcm_ifindex = ifindex, .tcm_parent = parent },
	};
	char buf[16384] __attribute__((aligned(4)));
	int n = 0;

	if (send(fd, &req, req.n.nlmsg_len, 0) < 0)
		return -errno;
	for (;;) {
		ssize_t len = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *h;

		if (len < 0)
			return -errno;
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, (size_t)len); h = NLMSG_NEXT(h, len)) {
			if (h->nlmsg_type == NLMSG_DONE)
				return n;
			if (h->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(h);

				return e->error ? e->error : n;
			}
			if (h->nlmsg_type == RTM_NEWTFILTER &&
			    ((const struct tcmsg *)NLMSG_DATA(h))->tcm_handle)
				n++;
		}
	}
}

int dynpf_clsact_nfilters(int ifindex)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	int in, eg;

	if (fd < 0)
		return -errno;
	in = count_filters(fd, ifindex, TC_H_MAKE(TC_H_CLSACT, TC_H_MIN_INGRESS));
	eg = in < 0 ? 0 : count_filters(fd, ifindex, TC_H_MAKE(TC_H_CLSACT, TC_H_MIN_EGRESS));
	close(fd);
	if (in < 0)
		return in;
	return eg < 0 ? eg : in + eg;
}

int dynpf_clsact_remove_if_empty(int ifindex)
{
	struct bpf_tc_hook h;
	int n = dynpf_clsact_nfilters(ifindex), err;

	if (n == -EINVAL || n == -ENOENT)
		return 0; /* no clsact qdisc */
	if (n)
		return n < 0 ? n : 0;
	hook_of(&h, ifindex, true);
	h.attach_point = BPF_TC_INGRESS | BPF_TC_EGRESS;
	err = bpf_tc_hook_destroy(&h);
	return err ? err : 1;
}

int dynpf_clsact_release(int ifindex, bool ingress)
{
	uint32_t other = 0;
	int err;

	if (dynpf_clsact_query(ifindex, !ingress, &other) || other)
		return 0;
	err = dynpf_clsact_remove_if_empty(ifindex);
	return err < 0 ? err : 1;
}
