// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The interfaces the daemon keeps attached: XDP (an earlier daemon's program
 * replaced in place, or libxdp), TC (attach/'s tcx link, pinned and updated
 * in place by a restart, or its clsact filter, marked when dynpf made the
 * qdisc), detaching, the slot of the counters each interface counts in, and
 * the interfaces that go away under the daemon or appear (rtnetlink link
 * events): a configured one is attached whenever it is there.
 */
#include <errno.h>
#include <limits.h>
#include <linux/capability.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <xdp/libxdp.h>

#include "attach/attach.h"
#include "attach/clsact.h"
#include "daemon/internal.h"
#include "dynpf.skel.h"
#include "dynpf_lazy.skel.h"
#include "lib/log.h"
#include "lib/progs.h"

static enum dynpf_xdp_mode xdp_mode(const struct attachment *a)
{
	return a->cfg.hook == DYNPF_ATTACH_XDP_GENERIC ? DYNPF_XDP_GENERIC : DYNPF_XDP_NATIVE;
}

/* A dynpf XDP program there (an earlier daemon's): ours replaced in place. */
static int xdp_replace(struct attachment *a, struct bpf_program *prog, __u32 id)
{
	int flags = dynpf_xdp_mode_flags(xdp_mode(a));
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	int fd = bpf_prog_get_fd_by_id(id), err;

	if (fd < 0 || bpf_prog_get_info_by_fd(fd, &info, &len)) {
		if (fd >= 0)
			close(fd);
		p_err("%s: cannot inspect the XDP program (id %u) attached", a->cfg.name, id);
		return -EBUSY;
	}
	if (strncmp(info.name, "dynpf_xdp", 9)) {
		close(fd);
		p_err("%s: another XDP program is attached (id %u, '%s'): detach it first "
		      "(ip link set dev %s xdp off, or xdp-loader unload %s --all)",
		      a->cfg.name, id, info.name, a->cfg.name, a->cfg.name);
		return -EBUSY;
	}
	LIBBPF_OPTS(bpf_xdp_attach_opts, o, .old_prog_fd = fd);
	err = bpf_xdp_attach(a->ifindex, bpf_program__fd(prog), flags | XDP_FLAGS_REPLACE, &o);
	close(fd);
	if (err) {
		p_err("%s: cannot replace the XDP program of the last daemon: %s", a->cfg.name,
		      strerror(-err));
		return err;
	}
	snprintf(a->how, sizeof(a->how), "xdp %s, replaced in place",
		 dynpf_xdp_mode_name(xdp_mode(a)));
	return 0;
}

/*
 * XDP: replace a dynpf program left by an earlier daemon atomically; refuse
 * to touch anybody else's; attach through libxdp otherwise (its dispatcher
 * where the kernel allows, one program where it does not).
 */
static int attach_xdp(struct daemon *d, struct attachment *a)
{
	struct bpf_program *prog =
		dynpf_lazy_prog(&d->lazy, a->cfg.frags ? DYNPF_HOOK_XDP_FRAGS : DYNPF_HOOK_XDP);
	bool generic = xdp_mode(a) == DYNPF_XDP_GENERIC;
	const char *mode = dynpf_xdp_mode_name(xdp_mode(a));
	struct xdp_program *xp;
	struct xdp_multiprog *mp;
	__u32 id = 0;
	int err;

	if (!bpf_xdp_query_id(a->ifindex, 0, &id) && id)
		return xdp_replace(a, prog, id);
	/* libxdp reads the program's BTF by id, which needs CAP_SYS_ADMIN:
	 * without it, libxdp 1.3 crashes instead of failing. */
	if (!dynpf_has_cap(CAP_SYS_ADMIN)) {
		p_err("%s: cannot attach XDP: libxdp needs CAP_SYS_ADMIN (to read the program's "
		      "BTF by id); attach at tc, or give the daemon CAP_SYS_ADMIN",
		      a->cfg.name);
		return -EPERM;
	}
	xp = xdp_program__from_fd(bpf_program__fd(prog));
	err = libxdp_get_error(xp);
	if (err) {
		p_err("%s: libxdp cannot use the program: %s", a->cfg.name, strerror(-err));
		return err;
	}
	err = xdp_program__attach(xp, a->ifindex, generic ? XDP_MODE_SKB : XDP_MODE_NATIVE, 0);
	if (err) {
		xdp_program__close(xp);
		p_err("%s: cannot attach XDP (%s mode): %s", a->cfg.name, mode, strerror(-err));
		return err;
	}
	mp = xdp_multiprog__get_from_ifindex(a->ifindex);
	snprintf(a->how, sizeof(a->how), "xdp %s, libxdp %s", mode,
		 !libxdp_get_error(mp) && !xdp_multiprog__is_legacy(mp)
			 ? "dispatcher"
			 : "single program (no dispatcher)");
	if (!libxdp_get_error(mp))
		xdp_multiprog__close(mp);
	xdp_program__close(xp);
	return 0;
}

/* An earlier daemon's tcx link pinned at path: prog in it, in place. */
static bool tcx_update(struct attachment *a, const char *path, int prog_fd)
{
	int fd = access(path, F_OK) ? -1 : bpf_obj_get(path);

	if (fd < 0)
		return false;
	if (bpf_link_update(fd, prog_fd, NULL)) {
		/* The interface went away and came back: a fresh link. */
		unlink(path);
		close(fd);
		return false;
	}
	a->tc.fd = fd;
	a->tc.ifindex = a->ifindex;
	a->tc.ingress = a->cfg.hook == DYNPF_ATTACH_TC_INGRESS;
	snprintf(a->how, sizeof(a->how), "tcx link, replaced in place");
	return true;
}

/*
 * TC: a tcx link, pinned; an earlier daemon's pinned link is updated. With
 * tc_attach "clsact", or "auto" on a kernel without tcx (or where an earlier
 * daemon's clsact filter is still there), a cls_bpf filter on clsact.
 */
static int attach_tc(struct daemon *d, struct attachment *a)
{
	bool ingress = a->cfg.hook == DYNPF_ATTACH_TC_INGRESS;
	int prog_fd = bpf_program__fd(
		dynpf_lazy_prog(&d->lazy, ingress ? DYNPF_HOOK_TC_INGRESS : DYNPF_HOOK_TC_EGRESS));
	enum dynpf_tc_mode mode = d->cfg.tc_mode;
	char path[PATH_MAX], why[96] = "";
	uint32_t old_id = 0;
	int err;

	if (mode == DYNPF_TC_AUTO && !dynpf_clsact_query(a->ifindex, ingress, &old_id) && old_id)
		mode = DYNPF_TC_CLSACT;
	tc_link_path(d, a, path, sizeof(path));
	if (mode != DYNPF_TC_CLSACT && tcx_update(a, path, prog_fd))
		return 0;
	err = dynpf_tc_attach(&a->tc, prog_fd, a->ifindex, ingress, mode);
	if (a->tc.tcx_err) {
		pr_warn("%s: no tcx link (%s): this kernel has no tcx (6.6+); using clsact\n",
			a->cfg.name, strerror(-a->tc.tcx_err));
		snprintf(why, sizeof(why), " (no tcx: %s)", strerror(-a->tc.tcx_err));
	}
	if (err && (mode == DYNPF_TC_CLSACT || a->tc.tcx_err))
		p_err("%s: cannot attach the cls_bpf filter to clsact (%s): %s", a->cfg.name,
		      dynpf_attach_hook_name(a->cfg.hook), strerror(-err));
	else if (err)
		p_err("%s: cannot attach the tcx link (%s): %s", a->cfg.name,
		      dynpf_attach_hook_name(a->cfg.hook), strerror(-err));
	if (err)
		return err;
	if (a->tc.clsact) {
		if (a->tc.created) {
			clsact_mark_path(d, a->cfg.name, path, sizeof(path));
			if (mkdir(path, 0700) && errno != EEXIST)
				pr_warn("%s: cannot mark the clsact qdisc as dynpf's at %s: %s\n",
					a->cfg.name, path, strerror(errno));
		}
		snprintf(a->how, sizeof(a->how), "clsact filter %#x prio %#x%s%s",
			 DYNPF_CLSACT_HANDLE, DYNPF_CLSACT_PRIO,
			 a->tc.replaced ? ", replaced in place" : "", why);
		return 0;
	}
	err = bpf_obj_pin(a->tc.fd, path) ? -errno : 0;
	if (err) {
		p_err("%s: cannot pin the tcx link at %s: %s", a->cfg.name, path, strerror(-err));
		dynpf_tc_detach(&a->tc);
		return err;
	}
	snprintf(a->how, sizeof(a->how), "tcx link");
	return 0;
}

/* ---- counters per interface ---------------------------------------------- */

/*
 * The slot of dynpf_stats that counts an interface (dynpf_ifslots[ifindex]):
 * given out at its first attachment, kept in the pinned map across restarts,
 * taken back when its last attachment goes. 0, the shared slot, for an
 * ifindex past the table or when all slots are taken.
 */
static uint32_t ifslot_get(struct daemon *d, int ifindex)
{
	int fd = bpf_map__fd(d->skel->maps.dynpf_ifslots);
	int sfd = bpf_map__fd(d->skel->maps.dynpf_stats);
	bool used[DYNPF_IF_SLOTS] = { true };
	__u32 k = ifindex, slot = 0, s;
	int ncpu = libbpf_num_possible_cpus();
	struct dynpf_stats *zero;

	if (ifindex <= 0 || ifindex >= DYNPF_IFSLOT_MAX_IFINDEX)
		return 0;
	if (!bpf_map_lookup_elem(fd, &k, &slot) && slot)
		return slot % DYNPF_IF_SLOTS;
	for (__u32 i = 1; i < DYNPF_IFSLOT_MAX_IFINDEX; i++)
		if (!bpf_map_lookup_elem(fd, &i, &s))
			used[s % DYNPF_IF_SLOTS] = true;
	for (slot = 1; slot < DYNPF_IF_SLOTS && used[slot]; slot++)
		;
	if (slot == DYNPF_IF_SLOTS || ncpu < 0) {
		pr_warn("ifindex %d: no counter slot left: counted with the others\n", ifindex);
		return 0;
	}
	/* A slot given out again starts from zero. */
	zero = calloc(ncpu, sizeof(*zero));
	if (zero) {
		for (int h = 0; h < DYNPF_HOOK_MAX; h++) {
			__u32 key = dynpf_stats_key(slot, h);

			bpf_map_update_elem(sfd, &key, zero, BPF_ANY);
		}
		free(zero);
	}
	bpf_map_update_elem(fd, &k, &slot, BPF_ANY);
	return slot;
}

/* The interface's slot back, if none of its attachments is left. */
void ifslot_put(struct daemon *d, int ifindex)
{
	__u32 k = ifindex, zero = 0;

	for (int i = 0; i < d->natt; i++)
		if (d->att[i].ifindex == ifindex)
			return;
	if (ifindex > 0 && ifindex < DYNPF_IFSLOT_MAX_IFINDEX)
		bpf_map_update_elem(bpf_map__fd(d->skel->maps.dynpf_ifslots), &k, &zero, BPF_ANY);
}

/* ---- attach, detach ---------------------------------------------------------- */

void attachment_init(struct attachment *a, const struct dynpf_iface_cfg *cfg)
{
	memset(a, 0, sizeof(*a));
	a->cfg = *cfg;
	a->cfg_idx = -1;
	a->tc = (struct dynpf_tc_link)DYNPF_TC_LINK_INIT;
}

/* The counters' hook (DYNPF_HOOK_*) of an attachment. */
int attachment_stats_hook(const struct attachment *a)
{
	return a->cfg.hook == DYNPF_ATTACH_TC_INGRESS  ? DYNPF_HOOK_TC_INGRESS
	       : a->cfg.hook == DYNPF_ATTACH_TC_EGRESS ? DYNPF_HOOK_TC_EGRESS
	       : a->cfg.frags                          ? DYNPF_HOOK_XDP_FRAGS
						       : DYNPF_HOOK_XDP;
}

/* Configured interface i is wanted but not attached: it is not there (yet). */
bool iface_waiting(const struct daemon *d, int i)
{
	if (!d->want[i])
		return false;
	for (int k = 0; k < d->natt; k++)
		if (d->att[k].cfg_idx == i)
			return false;
	return true;
}

/* a (its cfg and ifindex set) attached, with its counters' slot. 0 or -errno. */
int attach_one(struct daemon *d, struct attachment *a)
{
	a->slot = ifslot_get(d, a->ifindex);
	return a->cfg.hook <= DYNPF_ATTACH_XDP_GENERIC ? attach_xdp(d, a) : attach_tc(d, a);
}

/*
 * Configured interface i, if it is there (-ENODEV if not): attached, or
 * -errno after saying why.
 */
static int attach_cfg(struct daemon *d, int i, int ifindex, const char *event)
{
	struct attachment *a = &d->att[d->natt];
	int err;

	if (d->natt == DYNPF_MAX_IFACES) {
		p_err("%s: %d attachments already", d->cfg.ifaces[i].name, DYNPF_MAX_IFACES);
		return -ENOSPC;
	}
	attachment_init(a, &d->cfg.ifaces[i]);
	a->cfg_idx = i;
	a->ifindex = ifindex;
	err = attach_one(d, a);
	if (err) {
		ifslot_put(d, ifindex);
		return err;
	}
	d->natt++;
	pr_info("%s: %sattached at %s (%s)\n", a->cfg.name, event,
		dynpf_attach_hook_name(a->cfg.hook), a->how);
	return 0;
}

/*
 * At start: every configured interface that is there. One that is not
 * waits (attach_waiting); one that cannot be attached stops the start.
 */
int attach_all(struct daemon *d)
{
	for (int i = 0; i < d->cfg.nifaces; i++) {
		int ifindex = if_nametoindex(d->cfg.ifaces[i].name), err;

		d->want[i] = true;
		if (!ifindex) {
			pr_warn("%s: no such interface (config %s): attached at %s when it "
				"appears\n",
				d->cfg.ifaces[i].name, d->config_path,
				dynpf_attach_hook_name(d->cfg.ifaces[i].hook));
			continue;
		}
		err = attach_cfg(d, i, ifindex, "");
		if (err)
			return err;
	}
	return 0;
}

/*
 * Configured interfaces that are waiting and have appeared (created, moved
 * into the namespace, re-created), attached. One that cannot be is said
 * once, and tried again only when an interface of its name is made anew.
 */
static void attach_waiting(struct daemon *d)
{
	for (int i = 0; i < d->cfg.nifaces; i++) {
		int ifindex;
		char event[48];

		if (!iface_waiting(d, i))
			continue;
		ifindex = if_nametoindex(d->cfg.ifaces[i].name);
		if (!ifindex || ifindex == d->failed_ifindex[i])
			continue;
		snprintf(event, sizeof(event), "appeared (ifindex %d): ", ifindex);
		if (attach_cfg(d, i, ifindex, event)) {
			d->failed_ifindex[i] = ifindex;
			pr_warn("%s: appeared (ifindex %d) but could not be attached at %s (above): "
				"tried again when it is made anew\n",
				d->cfg.ifaces[i].name, ifindex,
				dynpf_attach_hook_name(d->cfg.ifaces[i].hook));
		}
	}
}

/* TC through clsact: dynpf's filter, then the qdisc if dynpf made it (marked). */
static void detach_clsact(struct daemon *d, struct attachment *a)
{
	char path[PATH_MAX];
	int err = dynpf_clsact_detach(a->ifindex, a->tc.ingress);

	if (err && err != -ENOENT)
		pr_warn("%s: cannot remove the cls_bpf filter: %s\n", a->cfg.name, strerror(-err));
	/* The qdisc goes with dynpf's last filter, if dynpf made it
	 * and nobody else's filter is on it. */
	clsact_mark_path(d, a->cfg.name, path, sizeof(path));
	if (!access(path, F_OK)) {
		err = dynpf_clsact_release(a->ifindex, a->tc.ingress);
		if (err < 0)
			pr_warn("%s: cannot remove the clsact qdisc: %s\n", a->cfg.name,
				strerror(-err));
		if (err)
			rmdir(path);
	}
	a->tc.clsact = false;
}

void detach_one(struct daemon *d, struct attachment *a)
{
	char path[PATH_MAX];

	if (a->cfg.hook <= DYNPF_ATTACH_XDP_GENERIC) {
		struct xdp_multiprog *mp = xdp_multiprog__get_from_ifindex(a->ifindex);

		if (!libxdp_get_error(mp)) {
			xdp_multiprog__detach(mp);
			xdp_multiprog__close(mp);
		} else {
			bpf_xdp_detach(a->ifindex, dynpf_xdp_mode_flags(xdp_mode(a)), NULL);
		}
	} else if (a->tc.clsact) {
		detach_clsact(d, a);
	} else if (a->tc.fd >= 0) {
		tc_link_path(d, a, path, sizeof(path));
		unlink(path);
		dynpf_tc_detach(&a->tc);
	}
	pr_info("%s: detached\n", a->cfg.name);
}

/* Attachment i gone from the list, and its interface's slot if it was the last. */
void attachment_drop(struct daemon *d, int i)
{
	int ifindex = d->att[i].ifindex;

	d->att[i] = d->att[--d->natt];
	ifslot_put(d, ifindex);
}

/* Everything this daemon attached and pinned, gone (but libxdp's directory). */
void detach_all(struct daemon *d)
{
	for (int i = 0; i < d->natt; i++)
		detach_one(d, &d->att[i]);
	d->natt = 0;
	if (d->skel)
		bpf_object__unpin_maps(d->skel->obj, NULL);
	rmdir(d->cfg.pin_dir);
}

/*
 * The interface of a went away (deleted, or moved to another network
 * namespace): the kernel took the programs off with it. Forget what
 * pointed at it (the tcx link's pin, the clsact mark), keep the rest.
 */
static void forget_gone(struct daemon *d, struct attachment *a)
{
	char path[PATH_MAX];

	if (a->tc.fd >= 0) {
		tc_link_path(d, a, path, sizeof(path));
		unlink(path);
		close(a->tc.fd);
		a->tc.fd = -1;
	} else if (a->tc.clsact) {
		clsact_mark_path(d, a->cfg.name, path, sizeof(path));
		rmdir(path);
		a->tc.clsact = false;
	}
	pr_warn("%s: the interface is gone (ifindex %d): detached from it, %s%s\n", a->cfg.name,
		a->ifindex, dynpf_attach_hook_name(a->cfg.hook),
		a->cfg_idx >= 0 && d->want[a->cfg_idx] ? "; attached again when it is back" : "");
}

void on_link_events(struct daemon *d)
{
	char buf[16384] __attribute__((aligned(NLMSG_ALIGNTO)));
	bool appeared = false;
	ssize_t n;

	while ((n = recv(d->nlsock, buf, sizeof(buf), 0)) > 0) {
		for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, (size_t)n);
		     h = NLMSG_NEXT(h, n)) {
			const struct ifinfomsg *ifi = NLMSG_DATA(h);

			if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*ifi)))
				continue;
			/* A new link, or one that changed (renamed too). */
			appeared |= h->nlmsg_type == RTM_NEWLINK;
			if (h->nlmsg_type != RTM_DELLINK)
				continue;
			for (int i = 0; i < d->natt;) {
				if (d->att[i].ifindex != ifi->ifi_index) {
					i++;
					continue;
				}
				forget_gone(d, &d->att[i]);
				attachment_drop(d, i);
			}
		}
	}
	if (n < 0 && errno == ENOBUFS) {
		pr_warn("link events lost (the socket's buffer overflowed)\n");
		appeared = true;
	}
	if (appeared)
		attach_waiting(d);
}
