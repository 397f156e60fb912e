// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf daemon: loads dynpf's programs once, pins their maps under bpffs,
 * attaches them to the configured interfaces, is the only producer on the
 * control ring, and serves the CLI on a Unix socket (docs/daemon.md).
 *
 * Restarts keep filtering: XDP programs attached through netlink and tcx
 * links pinned under the pin directory stay attached while no daemon runs,
 * and a new daemon reuses the pinned maps (the rule set, its counters) and
 * swaps its freshly loaded programs in atomically.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sched.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/magic.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <xdp/libxdp.h>

#include "attach/attach.h"
#include "channel/ruleset.h"
#include "cli/cmds.h"
#include "daemon/config.h"
#include "channel/ring.h"
#include "daemon/daemon.h"
#include "dynpf.skel.h"
#include "lib/log.h"
#include "lib/nl.h"
#include "lib/progs.h"
#include "daemon/request.h"
#include "lang/rules_lang.h"
#include "lib/sockio.h"
#include "attach/clsact.h"

struct attachment {
	struct dynpf_iface_cfg cfg;
	int ifindex;
	struct dynpf_tc_link tc; /* TC: its tcx link (pinned), or dynpf's clsact filter */
	uint32_t slot;           /* its counters' slot (dynpf_ifslots) */
	char how[96];            /* how it is attached, for status */
};

struct daemon {
	struct dynpf_config cfg;
	const char *config_path;
	struct dynpf_bpf *skel;
	struct dynpf_ctrl ctrl;
	bool adopted; /* the maps were pinned before: a restart */
	struct attachment att[DYNPF_MAX_IFACES];
	int natt;
	int lsock, sigfd;
	int nlsock; /* link events: an attached interface going away */
	int lockfd; /* the pin directory, flock()ed: one daemon per pin_dir */
	bool stop;
};

static int mkdir_p(const char *path, mode_t mode)
{
	char buf[PATH_MAX];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, mode) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, mode) && errno != EEXIST)
		return -errno;
	return 0;
}

/* The pin directory must be on a bpffs. */
static int check_bpffs(const char *dir)
{
	char parent[PATH_MAX], *slash;
	struct statfs st;

	snprintf(parent, sizeof(parent), "%s", dir);
	slash = strrchr(parent, '/');
	if (slash && slash != parent)
		*slash = 0;
	if (statfs(parent, &st) || st.f_type != BPF_FS_MAGIC) {
		p_err("%s is not on a bpf filesystem: mount it (mount -t bpf bpf %s) or set "
		      "\"pin_dir\" under a bpffs mount",
		      parent, parent);
		return -ENOENT;
	}
	return 0;
}

static void pin_path(const struct daemon *d, const char *name, char *out, size_t len)
{
	/* pin_dir is at most PATH_MAX - 1 bytes: the path may be cut, and then
	 * the pin fails with a clear error, never elsewhere. */
	if ((size_t)snprintf(out, len, "%s/%s", d->cfg.pin_dir, name) >= len)
		out[0] = 0;
}

static void tc_link_path(const struct daemon *d, const struct attachment *a, char *out, size_t len)
{
	char name[64];

	snprintf(name, sizeof(name), "link_%s_%s", a->cfg.name,
		 a->cfg.hook == DYNPF_ATTACH_TC_INGRESS ? "ingress" : "egress");
	pin_path(d, name, out, len);
}

/*
 * Marks, in the pin directory, that dynpf made the clsact qdisc of an
 * interface (bpffs holds directories, not files): whoever detaches dynpf's
 * last filter from it removes it, if no other filter is left on it.
 */
static void clsact_mark_path(const struct daemon *d, const char *ifname, char *out, size_t len)
{
	char name[64];

	snprintf(name, sizeof(name), "clsact_%s", ifname);
	pin_path(d, name, out, len);
}

/* Open, size, pin the maps (reusing pinned ones), load. */
static int load_programs(struct daemon *d)
{
	char path[PATH_MAX];
	struct bpf_map *map;
	struct stat st;
	int err;

	d->skel = dynpf_bpf__open();
	if (!d->skel) {
		err = -errno;
		p_err("cannot open the BPF object: %s", strerror(-err));
		return err;
	}
	d->skel->rodata->dynpf_trace_on = d->cfg.trace;
	d->skel->rodata->dynpf_cfg_max_ext = d->cfg.parse.max_ext;
	d->skel->rodata->dynpf_cfg_max_stacks = d->cfg.parse.max_stacks;
	err = dynpf_size_rule_maps(d->skel, d->cfg.max_rules);
	if (err) {
		p_err("cannot size the rule tables: %s", strerror(-err));
		return err;
	}
	/* The tcx attach types in the programs, as earlier daemons loaded them
	 * for their pinned links (attach/ needs none: bpf_link_create). */
	bpf_program__set_expected_attach_type(d->skel->progs.dynpf_tc_ingress, BPF_TCX_INGRESS);
	bpf_program__set_expected_attach_type(d->skel->progs.dynpf_tc_egress, BPF_TCX_EGRESS);
	pin_path(d, "dynpf_state", path, sizeof(path));
	d->adopted = !stat(path, &st);
	bpf_object__for_each_map(map, d->skel->obj) {
		if (bpf_map__is_internal(map))
			continue;
		pin_path(d, bpf_map__name(map), path, sizeof(path));
		err = bpf_map__set_pin_path(map, path);
		if (err)
			return err;
	}
	err = dynpf_bpf__load(d->skel);
	if (err) {
		p_err("cannot load the BPF programs (%s)%s", strerror(-err),
		      d->adopted ? ": the maps pinned under the pin directory may be from "
				   "another dynpf version (dynpf detach --all removes them)"
				 : ": run with -vv to see the verifier log");
		return err;
	}
	return 0;
}

/* The pid holding a flock() on the file st describes (/proc/locks), or 0. */
static long lock_holder(const struct stat *st)
{
	FILE *f = fopen("/proc/locks", "re");
	char line[256];
	long pid = 0;

	while (f && !pid && fgets(line, sizeof(line), f)) {
		unsigned int maj, min;
		unsigned long ino;
		long p;

		/* "1: FLOCK  ADVISORY  WRITE 2040 00:19:19548 0 EOF" */
		if (sscanf(line, "%*d: FLOCK %*s WRITE %ld %x:%x:%lu", &p, &maj, &min, &ino) == 4 &&
		    maj == major(st->st_dev) && min == minor(st->st_dev) && ino == st->st_ino)
			pid = p;
	}
	if (f)
		fclose(f);
	return pid;
}

/*
 * One daemon per pin directory: a second one would take the control ring
 * (and its in-flight messages) from under the first, and re-attach its
 * interfaces. The lock goes with the process, kill -9 included.
 */
int dynpf_lock_pin_dir(const char *dir, const char *hint)
{
	struct stat st;
	int fd, err;

	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		p_err("cannot open %s: %s", dir, strerror(-err));
		return err;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		long pid;

		err = -errno;
		pid = err == -EWOULDBLOCK && !fstat(fd, &st) ? lock_holder(&st) : 0;
		if (err != -EWOULDBLOCK)
			p_err("cannot lock %s: %s", dir, strerror(-err));
		else if (pid)
			p_err("a dynpf daemon (pid %ld) runs with the pin directory %s: %s", pid,
			      dir, hint);
		else
			p_err("a dynpf daemon runs with the pin directory %s: %s", dir, hint);
		close(fd);
		return err;
	}
	return fd;
}

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
	struct bpf_program *prog = a->cfg.frags ? d->skel->progs.dynpf_xdp_frags
						: d->skel->progs.dynpf_xdp;
	const char *mode = dynpf_xdp_mode_name(xdp_mode(a));
	struct xdp_program *xp;
	struct xdp_multiprog *mp;
	__u32 id = 0;
	int err;

	if (!bpf_xdp_query_id(a->ifindex, 0, &id) && id)
		return xdp_replace(a, prog, id);
	xp = xdp_program__from_fd(bpf_program__fd(prog));
	err = libxdp_get_error(xp);
	if (err) {
		p_err("%s: libxdp cannot use the program: %s", a->cfg.name, strerror(-err));
		return err;
	}
	err = xdp_program__attach(xp, a->ifindex,
				  xdp_mode(a) == DYNPF_XDP_GENERIC ? XDP_MODE_SKB : XDP_MODE_NATIVE, 0);
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
	int prog_fd = bpf_program__fd(ingress ? d->skel->progs.dynpf_tc_ingress
					      : d->skel->progs.dynpf_tc_egress);
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
	if (err) {
		if (mode == DYNPF_TC_CLSACT || a->tc.tcx_err)
			p_err("%s: cannot attach the cls_bpf filter to clsact (%s): %s", a->cfg.name,
			      dynpf_attach_hook_name(a->cfg.hook), strerror(-err));
		else
			p_err("%s: cannot attach the tcx link (%s): %s", a->cfg.name,
			      dynpf_attach_hook_name(a->cfg.hook), strerror(-err));
		return err;
	}
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
static void ifslot_put(struct daemon *d, int ifindex)
{
	__u32 k = ifindex, zero = 0;

	for (int i = 0; i < d->natt; i++)
		if (d->att[i].ifindex == ifindex)
			return;
	if (ifindex > 0 && ifindex < DYNPF_IFSLOT_MAX_IFINDEX)
		bpf_map_update_elem(bpf_map__fd(d->skel->maps.dynpf_ifslots), &k, &zero, BPF_ANY);
}

/* ---- attach, detach ---------------------------------------------------------- */

static void attachment_init(struct attachment *a, const struct dynpf_iface_cfg *cfg)
{
	memset(a, 0, sizeof(*a));
	a->cfg = *cfg;
	a->tc = (struct dynpf_tc_link)DYNPF_TC_LINK_INIT;
}

/* a (its cfg and ifindex set) attached, with its counters' slot. 0 or -errno. */
static int attach_one(struct daemon *d, struct attachment *a)
{
	a->slot = ifslot_get(d, a->ifindex);
	return a->cfg.hook <= DYNPF_ATTACH_XDP_GENERIC ? attach_xdp(d, a) : attach_tc(d, a);
}

static int attach_all(struct daemon *d)
{
	for (int i = 0; i < d->cfg.nifaces; i++) {
		struct attachment *a = &d->att[d->natt];
		int err;

		attachment_init(a, &d->cfg.ifaces[i]);
		a->ifindex = if_nametoindex(a->cfg.name);
		if (!a->ifindex) {
			p_err("%s: no such interface (config %s)", a->cfg.name, d->config_path);
			return -ENODEV;
		}
		err = attach_one(d, a);
		if (err)
			return err;
		d->natt++;
		pr_info("%s: attached at %s (%s)\n", a->cfg.name,
			dynpf_attach_hook_name(a->cfg.hook), a->how);
	}
	return 0;
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

static void detach_one(struct daemon *d, struct attachment *a)
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
static void attachment_drop(struct daemon *d, int i)
{
	int ifindex = d->att[i].ifindex;

	d->att[i] = d->att[--d->natt];
	ifslot_put(d, ifindex);
}

/* Everything this daemon attached and pinned, gone (but libxdp's directory). */
static void detach_all(struct daemon *d)
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
	pr_warn("%s: the interface is gone (ifindex %d): detached from it, %s\n", a->cfg.name,
		a->ifindex, dynpf_attach_hook_name(a->cfg.hook));
}

static void on_link_events(struct daemon *d)
{
	char buf[16384] __attribute__((aligned(NLMSG_ALIGNTO)));
	ssize_t n;

	while ((n = recv(d->nlsock, buf, sizeof(buf), 0)) > 0) {
		for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, (size_t)n);
		     h = NLMSG_NEXT(h, n)) {
			const struct ifinfomsg *ifi = NLMSG_DATA(h);

			if (h->nlmsg_type != RTM_DELLINK ||
			    h->nlmsg_len < NLMSG_LENGTH(sizeof(*ifi)))
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
	if (n < 0 && errno == ENOBUFS)
		pr_warn("link events lost (the socket's buffer overflowed)\n");
}

/* ---- rules ----------------------------------------------------------------- */

static int rules_replace(struct daemon *d, const struct dynpf_ruleset *rs, const char *name,
			 char *err, size_t errlen, __u32 *gen)
{
	struct dynpf_ruleset old;
	int r;

	dynpf_ruleset_init(&old);
	r = dynpf_ruleset_read(d->skel, &old);
	if (r) {
		snprintf(err, errlen, "cannot read the active rule set: %s", strerror(-r));
		dynpf_ruleset_free(&old);
		return r;
	}
	r = dynpf_ruleset_apply(&d->ctrl, rs, name, &old, err, errlen, gen);
	dynpf_ruleset_free(&old);
	return r;
}

static int rules_load_file(struct daemon *d, const char *path)
{
	struct dynpf_ruleset rs;
	struct dynpf_rule_err rerr;
	char err[512] = "";
	__u32 gen = 0;
	int r;

	dynpf_ruleset_init(&rs);
	r = dynpf_ruleset_load(&rs, path, &rerr);
	if (r) {
		p_err("%s", rerr.msg);
		dynpf_ruleset_free(&rs);
		return r;
	}
	r = rules_replace(d, &rs, path, err, sizeof(err), &gen);
	if (r)
		p_err("%s", err);
	else
		pr_info("%s: %zu rules loaded, generation %u\n", path, rs.n, gen);
	dynpf_ruleset_free(&rs);
	return r;
}

/* ---- requests ---------------------------------------------------------------- */

#define jadd(o, k, v) json_object_object_add(o, k, v)

static json_object *reply_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static json_object *reply_err(const char *fmt, ...)
{
	json_object *o = json_object_new_object();
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	jadd(o, "ok", json_object_new_boolean(0));
	jadd(o, "error", json_object_new_string(msg));
	return o;
}

static json_object *reply_ok(void)
{
	json_object *o = json_object_new_object();

	jadd(o, "ok", json_object_new_boolean(1));
	return o;
}

static int read_state(struct daemon *d, struct dynpf_state *st)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(bpf_map__fd(d->skel->maps.dynpf_state), &zero, st);
}

static json_object *req_status(struct daemon *d, const struct dynpf_req *req)
{
	json_object *o = reply_ok(), *ifs = json_object_new_array();
	struct dynpf_state st = {};

	(void)req;
	read_state(d, &st);
	jadd(o, "pid", json_object_new_int(getpid()));
	jadd(o, "pin_dir", json_object_new_string(d->cfg.pin_dir));
	jadd(o, "generation", json_object_new_int64(st.gen));
	jadd(o, "rules", json_object_new_int64(st.nrules[st.active & 1]));
	jadd(o, "tuples", json_object_new_int64(st.ntuples[st.active & 1]));
	jadd(o, "adopted", json_object_new_boolean(d->adopted));
	for (int i = 0; i < d->natt; i++) {
		json_object *a = json_object_new_object();

		jadd(a, "name", json_object_new_string(d->att[i].cfg.name));
		jadd(a, "ifindex", json_object_new_int(d->att[i].ifindex));
		jadd(a, "hook", json_object_new_string(dynpf_attach_hook_name(d->att[i].cfg.hook)));
		jadd(a, "attach", json_object_new_string(d->att[i].how));
		json_object_array_add(ifs, a);
	}
	jadd(o, "interfaces", ifs);
	return o;
}

static json_object *req_rules_load(struct daemon *d, const struct dynpf_req *req)
{
	struct dynpf_rule_err rerr;
	struct dynpf_ruleset rs;
	const char *nm = req->name;
	char err[512];
	json_object *o;
	__u32 gen = 0;

	dynpf_ruleset_init(&rs);
	if (dynpf_ruleset_parse(&rs, nm, req->text, req->text_len, &rerr)) {
		dynpf_ruleset_free(&rs);
		return reply_err("%s", rerr.msg);
	}
	if (rules_replace(d, &rs, nm, err, sizeof(err), &gen)) {
		dynpf_ruleset_free(&rs);
		return reply_err("%s", err);
	}
	o = reply_ok();
	jadd(o, "rules", json_object_new_int64(rs.n));
	jadd(o, "generation", json_object_new_int64(gen));
	dynpf_ruleset_free(&rs);
	pr_info("%s: %lld rules loaded by a client, generation %u\n", nm,
		(long long)json_object_get_int64(json_object_object_get(o, "rules")), gen);
	return o;
}

/* The active rule set as a rule file: settings, then the rules. */
static json_object *req_rules_save(struct daemon *d, const struct dynpf_req *req)
{
	struct dynpf_ruleset rs;
	char line[DYNPF_RULE_TEXT_MAX];
	size_t cap = 4096, len = 0;
	char *text = malloc(cap);
	json_object *o;
	int r;

	(void)req;
	if (!text)
		return reply_err("out of memory");
	text[0] = 0;
	dynpf_ruleset_init(&rs);
	r = dynpf_ruleset_read(d->skel, &rs);
	if (r) {
		free(text);
		dynpf_ruleset_free(&rs);
		return reply_err("cannot read the active rule set: %s", strerror(-r));
	}
	for (size_t i = 0; i < DYNPF_SET_MAX + rs.n; i++) {
		int n;

		if (i < DYNPF_SET_MAX) {
			if (!(rs.set_seen & (1u << i)))
				continue;
			n = dynpf_setting_format(i, rs.set[i], line, sizeof(line));
		} else {
			n = dynpf_rule_format(&rs.rules[i - DYNPF_SET_MAX], line, sizeof(line));
		}
		if (len + n + 2 > cap) {
			char *t = realloc(text, cap = 2 * cap + n);

			if (!t) {
				free(text);
				dynpf_ruleset_free(&rs);
				return reply_err("out of memory");
			}
			text = t;
		}
		len += snprintf(text + len, cap - len, "%s\n", line);
	}
	o = reply_ok();
	jadd(o, "text", json_object_new_string_len(text, len));
	jadd(o, "rules", json_object_new_int64(rs.n));
	free(text);
	dynpf_ruleset_free(&rs);
	return o;
}

/* One rule added to the active set, in its own transaction. */
static json_object *req_rule_add(struct daemon *d, const struct dynpf_req *req)
{
	struct dynpf_ruleset cur, one;
	struct dynpf_rule_err rerr;
	char err[512];
	json_object *o;
	__u32 gen = 0;
	int r;

	dynpf_ruleset_init(&cur);
	dynpf_ruleset_init(&one);
	r = dynpf_ruleset_read(d->skel, &cur);
	if (r) {
		dynpf_ruleset_free(&cur);
		return reply_err("cannot read the active rule set: %s", strerror(-r));
	}
	one.rules = calloc(1, sizeof(*one.rules));
	one.lines = calloc(1, sizeof(*one.lines));
	if (!one.rules || !one.lines) {
		dynpf_ruleset_free(&cur);
		dynpf_ruleset_free(&one);
		return reply_err("out of memory");
	}
	one.cap = 1;
	r = dynpf_rule_parse_words(&one.rules[0], req->nwords, req->words, &cur.ids, &rerr);
	if (r) {
		dynpf_ruleset_free(&cur);
		dynpf_ruleset_free(&one);
		return reply_err("%s", rerr.msg);
	}
	one.n = 1;
	one.lines[0] = 1;
	if (dynpf_rule_ids_test(&cur.ids, one.rules[0].id)) {
		o = reply_err("rule %u exists: delete it first (dynpf rule del %u)",
			      one.rules[0].id, one.rules[0].id);
	} else if (dynpf_ruleset_apply(&d->ctrl, &one, DYNPF_RULE_CMDLINE, NULL, err, sizeof(err),
				       &gen)) {
		o = reply_err("%s", err);
	} else {
		o = reply_ok();
		jadd(o, "id", json_object_new_int64(one.rules[0].id));
		jadd(o, "generation", json_object_new_int64(gen));
	}
	dynpf_ruleset_free(&cur);
	dynpf_ruleset_free(&one);
	return o;
}

static json_object *req_rule_del(struct daemon *d, const struct dynpf_req *req)
{
	const struct dynpf_ack_commit *a;
	uint64_t sdel, scommit;
	int64_t n = req->id;
	json_object *o;

	dynpf_ctrl_take(&d->ctrl);
	if (dynpf_ctrl_begin(&d->ctrl, NULL) || dynpf_ctrl_del(&d->ctrl, n, &sdel) ||
	    dynpf_ctrl_commit(&d->ctrl, &scommit) || dynpf_ctrl_flush(&d->ctrl))
		return reply_err("the control channel failed");
	a = dynpf_ctrl_ack(&d->ctrl, sdel);
	if (!a || a->a.err)
		return reply_err("rule %lld: %s", (long long)n,
				 a && a->a.err == -ENOENT ? "no such rule"
							  : strerror(a ? -a->a.err : EPROTO));
	a = dynpf_ctrl_ack(&d->ctrl, scommit);
	o = reply_ok();
	jadd(o, "generation", json_object_new_int64(a ? a->a.gen : 0));
	return o;
}

static const char *const stats_hook_names[] = { "native", "xdp", "xdp-frags", "tc-ingress",
						"tc-egress" };
static const char *const stats_act_names[DYNPF_STATS_ACTS] = { "none", "pass", "drop",
							      "redirect" };

/* {"packets", "bytes", "actions": {..}, "errors": {..}} of one set of counters. */
static json_object *stats_json(const struct dynpf_stats *s, bool detail)
{
	json_object *o = json_object_new_object(), *errs = json_object_new_object();

	jadd(o, "packets", json_object_new_int64(s->packets));
	jadd(o, "bytes", json_object_new_int64(s->bytes));
	if (detail) {
		json_object *acts = json_object_new_object();

		for (int k = 1; k < DYNPF_STATS_ACTS; k++) {
			json_object *a = json_object_new_object();

			jadd(a, "packets", json_object_new_int64(s->act[k]));
			jadd(a, "bytes", json_object_new_int64(s->act_bytes[k]));
			jadd(acts, stats_act_names[k], a);
		}
		jadd(o, "actions", acts);
	}
	for (int k = 1; k < DYNPF_STATS_ERR_SLOTS && k < 8; k++) {
		if (!s->err[k])
			continue;
		if (detail) {
			json_object *e = json_object_new_object();

			jadd(e, "packets", json_object_new_int64(s->err[k]));
			jadd(e, "bytes", json_object_new_int64(s->err_bytes[k]));
			jadd(errs, dynpf_match_error_name(k) ?: "?", e);
		} else {
			jadd(errs, dynpf_match_error_name(k) ?: "?", json_object_new_int64(s->err[k]));
		}
	}
	jadd(o, "errors", errs);
	return o;
}

static json_object *req_stats(struct daemon *d, const struct dynpf_req *req)
{
	int ncpu = libbpf_num_possible_cpus(), sfd = bpf_map__fd(d->skel->maps.dynpf_stats);
	json_object *o = reply_ok(), *hooks = json_object_new_object();
	json_object *ifs = json_object_new_array();
	json_object *rules = json_object_new_array();
	struct dynpf_rule_stats *rsv = calloc(ncpu, sizeof(*rsv));
	struct dynpf_ruleset rs;

	(void)req;
	if (!rsv) {
		json_object_put(o);
		json_object_put(ifs);
		json_object_put(hooks);
		json_object_put(rules);
		return reply_err("out of memory");
	}
	/* Per hook, every interface. */
	for (int h = 1; h < DYNPF_HOOK_MAX; h++) {
		struct dynpf_stats s = {};
		int err = 0;

		for (uint32_t slot = 0; slot < DYNPF_IF_SLOTS && !err; slot++)
			err = dynpf_stats_read(sfd, slot, h, &s);
		if (!err)
			jadd(hooks, stats_hook_names[h], stats_json(&s, false));
	}
	jadd(o, "hooks", hooks);
	/* Per attachment: its interface's slot and its hook. */
	for (int i = 0; i < d->natt; i++) {
		const struct attachment *a = &d->att[i];
		int h = a->cfg.hook == DYNPF_ATTACH_TC_INGRESS ? DYNPF_HOOK_TC_INGRESS
			: a->cfg.hook == DYNPF_ATTACH_TC_EGRESS ? DYNPF_HOOK_TC_EGRESS
			: a->cfg.frags			      ? DYNPF_HOOK_XDP_FRAGS
							      : DYNPF_HOOK_XDP;
		struct dynpf_stats s = {};
		json_object *io;

		if (dynpf_stats_read(sfd, a->slot, h, &s))
			continue;
		io = stats_json(&s, true);
		jadd(io, "name", json_object_new_string(a->cfg.name));
		jadd(io, "ifindex", json_object_new_int(a->ifindex));
		jadd(io, "hook", json_object_new_string(dynpf_attach_hook_name(a->cfg.hook)));
		if (!a->slot)
			jadd(io, "shared", json_object_new_boolean(1));
		json_object_array_add(ifs, io);
	}
	jadd(o, "interfaces", ifs);
	dynpf_ruleset_init(&rs);
	if (!dynpf_ruleset_read(d->skel, &rs)) {
		int fd = bpf_map__fd(d->skel->maps.dynpf_rule_stats);

		for (size_t i = 0; i < rs.n; i++) {
			json_object *r = json_object_new_object();
			char text[DYNPF_RULE_TEXT_MAX];
			uint64_t pk = 0, by = 0;
			__u32 id = rs.rules[i].id;

			if (!bpf_map_lookup_elem(fd, &id, rsv))
				for (int c = 0; c < ncpu; c++) {
					pk += rsv[c].packets;
					by += rsv[c].bytes;
				}
			dynpf_rule_format(&rs.rules[i], text, sizeof(text));
			jadd(r, "id", json_object_new_int64(id));
			jadd(r, "packets", json_object_new_int64(pk));
			jadd(r, "bytes", json_object_new_int64(by));
			jadd(r, "rule", json_object_new_string(text));
			json_object_array_add(rules, r);
		}
	}
	jadd(o, "rules", rules);
	dynpf_ruleset_free(&rs);
	free(rsv);
	return o;
}

/* {"name", "hook", "frags"}: attach one more (not written to the config). */
static json_object *req_attach(struct daemon *d, const struct dynpf_req *req)
{
	struct dynpf_iface_cfg cfg = { .hook = req->hook, .frags = req->frags };
	struct attachment *a;
	json_object *o;
	char msg[512];
	int err;

	if (d->natt == DYNPF_MAX_IFACES)
		return reply_err("attach: %d attachments already", DYNPF_MAX_IFACES);
	a = &d->att[d->natt];
	snprintf(cfg.name, sizeof(cfg.name), "%s", req->name);
	attachment_init(a, &cfg);
	for (int i = 0; i < d->natt; i++)
		if (!strcmp(d->att[i].cfg.name, a->cfg.name) &&
		    (d->att[i].cfg.hook == a->cfg.hook ||
		     (d->att[i].cfg.hook <= DYNPF_ATTACH_XDP_GENERIC &&
		      a->cfg.hook <= DYNPF_ATTACH_XDP_GENERIC)))
			return reply_err("%s: already attached at %s", a->cfg.name,
					 dynpf_attach_hook_name(d->att[i].cfg.hook));
	a->ifindex = if_nametoindex(a->cfg.name);
	if (!a->ifindex)
		return reply_err("%s: no such interface", a->cfg.name);
	/* The attach functions report through p_err: their words go to the client. */
	dynpf_log_capture(msg, sizeof(msg));
	err = attach_one(d, a);
	dynpf_log_capture(NULL, 0);
	if (err) {
		ifslot_put(d, a->ifindex);
		return reply_err("%s", msg[0] ? msg : strerror(-err));
	}
	d->natt++;
	pr_info("%s: attached at %s (%s) by a client\n", a->cfg.name,
		dynpf_attach_hook_name(a->cfg.hook), a->how);
	o = reply_ok();
	jadd(o, "attach", json_object_new_string(a->how));
	return o;
}

/* {"name", "hook" (optional: all of the interface's)}: detach. */
static json_object *req_detach(struct daemon *d, const struct dynpf_req *req)
{
	enum dynpf_attach_hook h = req->hook;
	bool any_hook = !req->has_hook;
	json_object *o;
	int n = 0;

	for (int i = 0; i < d->natt;) {
		struct attachment *a = &d->att[i];

		if (strcmp(a->cfg.name, req->name) || (!any_hook && a->cfg.hook != h)) {
			i++;
			continue;
		}
		detach_one(d, a);
		attachment_drop(d, i);
		n++;
	}
	if (!n)
		return reply_err("%s: not attached%s%s", req->name, any_hook ? "" : " at ",
				 any_hook ? "" : dynpf_attach_hook_name(h));
	o = reply_ok();
	jadd(o, "detached", json_object_new_int(n));
	return o;
}

/* The handler of each command (request.h). */
static json_object *(*const handlers[])(struct daemon *d, const struct dynpf_req *req) = {
	[DYNPF_REQ_STATUS] = req_status,
	[DYNPF_REQ_RULES_LOAD] = req_rules_load,
	[DYNPF_REQ_RULES_SAVE] = req_rules_save,
	[DYNPF_REQ_RULE_ADD] = req_rule_add,
	[DYNPF_REQ_RULE_DEL] = req_rule_del,
	[DYNPF_REQ_STATS] = req_stats,
	[DYNPF_REQ_ATTACH] = req_attach,
	[DYNPF_REQ_DETACH] = req_detach,
};

static json_object *handle_request(struct daemon *d, const char *line, size_t len)
{
	struct dynpf_req req;
	json_object *rep = NULL;
	char err[256];

	if (dynpf_req_parse(line, len, &req, err, sizeof(err)))
		return reply_err("%s", err);
	if ((size_t)req.cmd < sizeof(handlers) / sizeof(handlers[0]) && handlers[req.cmd])
		rep = handlers[req.cmd](d, &req);
	dynpf_req_free(&req);
	return rep ? rep : reply_err("internal error: no reply");
}

/* Root, or a member of socket_group: its group, or one of its others
 * (SO_PEERGROUPS: the peer process's own, not /etc/group's). */
static bool peer_allowed(const struct daemon *d, int fd, const struct ucred *cred)
{
	gid_t gid = (gid_t)d->cfg.socket_gid, groups[256];
	socklen_t len = sizeof(groups);

	if (cred->uid == 0)
		return true;
	if (d->cfg.socket_gid < 0)
		return false;
	if (cred->gid == gid)
		return true;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &len))
		return false;
	for (size_t i = 0; i < len / sizeof(gid_t); i++)
		if (groups[i] == gid)
			return true;
	return false;
}

/* How long a client may take to send a request line, and to take its reply:
 * one that stalls is dropped, and the daemon goes on with the others. */
#define CLIENT_TIMEOUT_MS 5000

/* Has the peer closed its end? Then nobody waits for a reply. */
static bool peer_gone(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & (POLLHUP | POLLERR));
}

/* One client: requests until it closes; only root (or socket_group). */
static void serve_client(struct daemon *d, int fd)
{
	struct ucred cred;
	socklen_t clen = sizeof(cred);
	size_t cap = 65536, len = 0;
	char *buf = malloc(cap);
	int64_t deadline = dynpf_now_ms() + CLIENT_TIMEOUT_MS;

	if (!buf) {
		close(fd);
		return;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) || !peer_allowed(d, fd, &cred)) {
		const char *msg = d->cfg.socket_gid < 0
			? "{\"ok\":false,\"error\":\"only root may use the dynpf socket\"}\n"
			: "{\"ok\":false,\"error\":\"only root and the socket_group may use the "
			  "dynpf socket\"}\n";

		pr_warn("refused a client: uid %u gid %u\n", cred.uid, cred.gid);
		dynpf_write_by(fd, msg, strlen(msg), deadline);
		free(buf);
		close(fd);
		return;
	}
	for (;;) {
		json_object *rep;
		const char *s;
		char *nl;
		ssize_t n;
		int err;

		while (!(nl = memchr(buf, '\n', len))) {
			if (len == cap) {
				char *t;

				if (cap >= DYNPF_REQUEST_MAX)
					goto too_big;
				t = realloc(buf, cap *= 2);
				if (!t)
					goto out;
				buf = t;
			}
			n = dynpf_read_by(fd, buf + len, cap - len, deadline);
			if (n == -ETIMEDOUT)
				pr_warn("client pid %d (uid %u): no complete request in %d s, "
					"dropped\n",
					cred.pid, cred.uid, CLIENT_TIMEOUT_MS / 1000);
			if (n <= 0)
				goto out;
			len += n;
		}
		/* A client that gave up (its own timeout) before we got to its
		 * request: not carried out behind its back. */
		if (peer_gone(fd)) {
			pr_warn("client pid %d (uid %u) hung up before its request was taken: "
				"not carried out\n",
				cred.pid, cred.uid);
			goto out;
		}
		rep = handle_request(d, buf, nl - buf);
		s = json_object_to_json_string_ext(rep, JSON_C_TO_STRING_PLAIN);
		deadline = dynpf_now_ms() + CLIENT_TIMEOUT_MS;
		err = dynpf_write_line_by(fd, s, deadline);
		json_object_put(rep);
		if (err == -ETIMEDOUT)
			pr_warn("client pid %d (uid %u) did not take its reply in %d s, dropped\n",
				cred.pid, cred.uid, CLIENT_TIMEOUT_MS / 1000);
		if (err)
			goto out;
		len -= nl + 1 - buf;
		memmove(buf, nl + 1, len);
	}
too_big: {
	const char *msg = "{\"ok\":false,\"error\":\"request longer than the limit\"}\n";

	dynpf_write_by(fd, msg, strlen(msg), deadline);
}
out:
	free(buf);
	close(fd);
}

/* A socket someone answers on is another daemon's: not ours to take over. */
static int socket_in_use(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), used;

	if (fd < 0 || strlen(path) >= sizeof(sa.sun_path)) {
		if (fd >= 0)
			close(fd);
		return 0; /* open_control_socket says what is wrong */
	}
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	used = !connect(fd, (struct sockaddr *)&sa, sizeof(sa));
	close(fd);
	if (used)
		p_err("another dynpf daemon listens on %s: stop it first, or give this one "
		      "a socket of its own", path);
	return used;
}

static int open_control_socket(struct daemon *d)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char dir[PATH_MAX], *slash;
	int fd;

	if (strlen(d->cfg.socket) >= sizeof(sa.sun_path)) {
		p_err("socket path too long: %s", d->cfg.socket);
		return -ENAMETOOLONG;
	}
	snprintf(dir, sizeof(dir), "%s", d->cfg.socket);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = 0;
		mkdir_p(dir, 0755);
	}
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", d->cfg.socket);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	unlink(d->cfg.socket);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || listen(fd, 16)) {
		int err = -errno;

		p_err("cannot listen on %s: %s", d->cfg.socket, strerror(-err));
		close(fd);
		return err;
	}
	if (d->cfg.socket_gid >= 0) {
		if (chown(d->cfg.socket, 0, d->cfg.socket_gid))
			(void)0;
		chmod(d->cfg.socket, 0660);
	} else {
		chmod(d->cfg.socket, 0600);
	}
	d->lsock = fd;
	return 0;
}

static void daemon_usage(FILE *f)
{
	fprintf(f,
		"Usage: dynpf daemon [--config FILE]\n"
		"\n"
		"Loads dynpf's programs, pins them under the configured bpffs directory,\n"
		"attaches them to the configured interfaces, loads the rule file, and serves\n"
		"the CLI on the control socket (docs/daemon.md). Logs go to stderr, with\n"
		"journald priorities. SIGHUP reloads the rule file as one transaction;\n"
		"SIGTERM stops (and detaches everything if \"detach_on_exit\" is set).\n"
		"\n"
		"  --config FILE   the configuration (default " DYNPF_DEFAULT_CONFIG ")\n"
		"  --check-config  read the configuration, say what it holds, exit\n"
		"  -h, --help      this text\n");
}

/* libxdp's messages in the daemon's log: those it writes by itself (not its debug). */
static int libxdp_print(enum libxdp_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBXDP_DEBUG)
		return 0;
	return dynpf_log_lib(level == LIBXDP_WARN ? LOG_WARN : LOG_INFO, fmt, ap);
}

/* --check-config: what the configuration holds. */
static int check_config(const struct daemon *d)
{
	printf("%s: valid; %d interface%s, pins in %s, socket %s\n", d->config_path,
	       d->cfg.nifaces, d->cfg.nifaces == 1 ? "" : "s", d->cfg.pin_dir, d->cfg.socket);
	for (int i = 0; i < d->cfg.nifaces; i++)
		printf("  %s %s%s\n", d->cfg.ifaces[i].name,
		       dynpf_attach_hook_name(d->cfg.ifaces[i].hook),
		       d->cfg.ifaces[i].frags ? " (frags)" : "");
	return DYNPF_EXIT_OK;
}

/*
 * The options and the configuration: -1 to go on and run the daemon (its
 * log journald's from the configuration on), or the exit code.
 */
static int daemon_options(struct daemon *d, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "check-config", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	bool check_only = false;
	int c;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			d->config_path = optarg;
			break;
		case 'C':
			check_only = true;
			break;
		case 'h':
			daemon_usage(stdout);
			return DYNPF_EXIT_OK;
		default:
			fprintf(stderr, "Try 'dynpf daemon --help'.\n");
			return DYNPF_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		p_err("daemon: unexpected argument '%s'", argv[optind]);
		return DYNPF_EXIT_USAGE;
	}
	if (!check_only) {
		dynpf_log_journald();
		libxdp_set_print(libxdp_print);
	}
	if (dynpf_config_load(d->config_path, &d->cfg))
		return DYNPF_EXIT_USAGE;
	return check_only ? check_config(d) : -1;
}

/* Only the network namespace: bpffs and the socket stay ours. */
static int enter_netns(const struct daemon *d)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "/run/netns/%s", d->cfg.netns);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || setns(fd, CLONE_NEWNET)) {
		p_err("cannot enter the network namespace '%s' (%s): %s", d->cfg.netns, path,
		      strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/*
 * Before anything is loaded: the capabilities (each missing one named), the
 * kernel, the network namespace, the pin directory made and locked, the
 * socket nobody else's. 0, or -1 with nothing left behind.
 */
static int prepare(struct daemon *d)
{
	bool existed;
	int err;

	if (dynpf_check_caps(d->cfg.netns[0] != 0) || dynpf_probe_kernel())
		return -1;
	if (d->cfg.netns[0] && enter_netns(d))
		return -1;
	if (check_bpffs(d->cfg.pin_dir))
		return -1;
	existed = !access(d->cfg.pin_dir, F_OK);
	err = mkdir_p(d->cfg.pin_dir, 0700);
	if (err) {
		p_err("cannot create %s: %s", d->cfg.pin_dir, strerror(-err));
		return -1;
	}
	d->lockfd = dynpf_lock_pin_dir(d->cfg.pin_dir, "stop it first, or give this one a "
				       "pin_dir of its own");
	if (d->lockfd < 0)
		return -1;
	if (socket_in_use(d->cfg.socket)) {
		if (!existed)
			rmdir(d->cfg.pin_dir);
		close(d->lockfd);
		return -1;
	}
	return 0;
}

/*
 * The programs and the control ring. What a killed daemon left in the ring
 * is drained (its acks are nobody's), and a transaction it left open
 * aborted: nothing of it applies unless it was committed. 0 or -1.
 */
static int load(struct daemon *d)
{
	int discarded = 0, n;

	if (load_programs(d) || dynpf_ctrl_open(&d->ctrl, d->skel))
		return -1;
	n = dynpf_ctrl_recover(&d->ctrl, &discarded);
	if (n < 0)
		return -1;
	if (discarded)
		pr_warn("%d message%s a killed daemon reserved in the control ring and never "
			"finished: discarded\n",
			discarded, discarded == 1 ? "" : "s");
	if (n)
		pr_warn("%d messages a killed daemon left in the control ring: drained, its open "
			"transaction aborted\n",
			n);
	return 0;
}

/* The rule file (a fresh start), the interfaces, the socket. 0 or -1. */
static int start(struct daemon *d)
{
	if (!d->adopted && d->cfg.rules[0] && rules_load_file(d, d->cfg.rules))
		return -1;
	/* Before attaching: an interface that goes away from then on is seen. */
	d->nlsock = dynpf_nl_open(RTMGRP_LINK, SOCK_NONBLOCK); /* link deletions */
	if (d->nlsock < 0) {
		p_err("cannot watch the interfaces (netlink): %s", strerror(-d->nlsock));
		return -1;
	}
	if (attach_all(d) || open_control_socket(d))
		return -1;
	return 0;
}

/* SIGHUP reloads the rule file; SIGTERM and SIGINT stop. */
static void on_signal(struct daemon *d)
{
	struct signalfd_siginfo si;

	if (read(d->sigfd, &si, sizeof(si)) != sizeof(si))
		return;
	if (si.ssi_signo == SIGHUP) {
		if (d->cfg.rules[0])
			rules_load_file(d, d->cfg.rules);
		else
			pr_warn("SIGHUP: no rule file configured\n");
	} else {
		pr_info("signal %u: stopping\n", si.ssi_signo);
		d->stop = true;
	}
}

/* Signals, link events and clients, one at a time, until a signal stops it. */
static void run(struct daemon *d)
{
	sigset_t mask;

	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	signal(SIGPIPE, SIG_IGN);
	d->sigfd = signalfd(-1, &mask, SFD_CLOEXEC);
	pr_info("ready: %d interface%s, %s, socket %s\n", d->natt, d->natt == 1 ? "" : "s",
		d->adopted ? "rules and counters adopted from the pinned maps" : "fresh maps",
		d->cfg.socket);
	while (!d->stop) {
		struct pollfd pfd[3] = { { .fd = d->lsock, .events = POLLIN },
					 { .fd = d->sigfd, .events = POLLIN },
					 { .fd = d->nlsock, .events = POLLIN } };

		if (poll(pfd, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pfd[1].revents & POLLIN)
			on_signal(d);
		if (pfd[2].revents & POLLIN)
			on_link_events(d);
		if (pfd[0].revents & POLLIN) {
			int cfd = accept4(d->lsock, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);

			if (cfd >= 0)
				serve_client(d, cfd);
		}
	}
}

/* What the process holds, closed: the pins keep what stays attached. */
static void release(struct daemon *d)
{
	if (d->lsock >= 0) {
		close(d->lsock);
		unlink(d->cfg.socket);
	}
	if (d->sigfd >= 0)
		close(d->sigfd);
	if (d->nlsock >= 0)
		close(d->nlsock);
	dynpf_ctrl_close(&d->ctrl);
	for (int i = 0; i < d->natt; i++)
		if (d->att[i].tc.fd >= 0)
			close(d->att[i].tc.fd); /* the pin keeps the link */
	dynpf_bpf__destroy(d->skel);
	close(d->lockfd);
}

int cmd_daemon(int argc, char **argv)
{
	struct daemon d = { .config_path = DYNPF_DEFAULT_CONFIG, .lsock = -1, .sigfd = -1,
			    .nlsock = -1, .lockfd = -1 };
	int ret = daemon_options(&d, argc, argv);

	if (ret >= 0)
		return ret;
	if (prepare(&d))
		return DYNPF_EXIT_USAGE;
	ret = DYNPF_EXIT_USAGE;
	if (load(&d))
		goto out;
	if (start(&d))
		goto out_detach;
	run(&d);
	ret = DYNPF_EXIT_OK;
	if (d.cfg.detach_on_exit) {
		detach_all(&d);
		/* libxdp's own directory, if it made it and nobody else uses it. */
		rmdir("/sys/fs/bpf/xdp");
	} else {
		pr_info("left attached, maps and links pinned under %s\n", d.cfg.pin_dir);
	}
	goto out;
out_detach:
	/* Nothing half-attached left behind by a failed fresh start; a failed
	 * restart leaves the last daemon's programs filtering. */
	if (!d.adopted)
		detach_all(&d);
out:
	release(&d);
	return ret;
}
