// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The daemon's pin directory: it must be on a bpffs; the paths of what is
 * pinned there (maps, tcx links, clsact marks); its lock, one daemon per
 * directory; and dynpf's programs loaded with their maps pinned there, or
 * the maps an earlier daemon pinned adopted (a restart).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "channel/ruleset.h"
#include "daemon/daemon.h"
#include "daemon/internal.h"
#include "dynpf.skel.h"
#include "lib/log.h"
#include "lib/progs.h"

int mkdir_p(const char *path, mode_t mode)
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
int check_bpffs(const char *dir)
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

void pin_path(const struct daemon *d, const char *name, char *out, size_t len)
{
	/* pin_dir is at most PATH_MAX - 1 bytes: the path may be cut, and then
	 * the pin fails with a clear error, never elsewhere. */
	if ((size_t)snprintf(out, len, "%s/%s", d->cfg.pin_dir, name) >= len)
		out[0] = 0;
}

void tc_link_path(const struct daemon *d, const struct attachment *a, char *out, size_t len)
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
void clsact_mark_path(const struct daemon *d, const char *ifname, char *out, size_t len)
{
	char name[64];

	snprintf(name, sizeof(name), "clsact_%s", ifname);
	pin_path(d, name, out, len);
}

/*
 * The layout (DYNPF_LAYOUT) of the maps pinned at path, dynpf_state's: 0 for
 * an older version's, which did not write it; -errno when unreadable.
 */
static long pinned_layout(const char *path)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info), zero = 0;
	struct dynpf_state st;
	int fd, err;

	fd = bpf_obj_get(path);
	if (fd < 0)
		return -errno;
	err = bpf_map_get_info_by_fd(fd, &info, &len) ? -errno : 0;
	/* Another size: another version's state, not to be read into ours. */
	if (!err && info.value_size != sizeof(st))
		err = -EPROTO;
	if (!err && bpf_map_lookup_elem(fd, &zero, &st))
		err = -errno;
	close(fd);
	return err ? err : (long)st.layout;
}

/* Fresh maps: their layout, for the daemons that will adopt them. */
static int write_layout(struct daemon *d)
{
	int fd = bpf_map__fd(d->skel->maps.dynpf_state);
	struct dynpf_state st;
	__u32 zero = 0;

	if (bpf_map_lookup_elem(fd, &zero, &st))
		return -errno;
	st.layout = DYNPF_LAYOUT;
	return bpf_map_update_elem(fd, &zero, &st, BPF_EXIST) ? -errno : 0;
}

/* Open, size, pin the maps (reusing pinned ones), load. */
int load_programs(struct daemon *d)
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
	/* Its packet programs come from the lazy builds, loaded after it. */
	dynpf_skel_maps_only(d->skel);
	pin_path(d, "dynpf_state", path, sizeof(path));
	d->adopted = !stat(path, &st);
	/* Maps of the same sizes and another layout would be adopted by
	 * libbpf and misread: their rule entries, above all. */
	if (d->adopted) {
		long layout = pinned_layout(path);

		if (layout != DYNPF_LAYOUT) {
			char what[96];

			if (layout < 0)
				snprintf(what, sizeof(what), "dynpf_state unreadable: %s",
					 strerror((int)-layout));
			else
				snprintf(what, sizeof(what), "their layout %ld, this version's %d",
					 layout, DYNPF_LAYOUT);
			p_err("%s: the maps pinned there are from another dynpf version (%s; "
			      "dynpf detach --all --pin-dir %s removes them; the rules are loaded "
			      "again from the rule file)",
			      d->cfg.pin_dir, what, d->cfg.pin_dir);
			return -EINVAL;
		}
	}
	bpf_object__for_each_map(map, d->skel->obj) {
		if (bpf_map__is_internal(map))
			continue;
		pin_path(d, bpf_map__name(map), path, sizeof(path));
		/*
		 * Adopting, every map must be there: libbpf would make a
		 * missing one afresh and empty, and the rule set in the
		 * others would be read through it (a map this version
		 * added: the konst tuples' chain heads, dynpf_kheads, empty
		 * beside an older daemon's rules, loses their matches).
		 */
		if (d->adopted && stat(path, &st)) {
			p_err("%s: the maps pinned there are from another dynpf version: %s is "
			      "not pinned (dynpf detach --all --pin-dir %s removes them; the rules "
			      "are loaded again from the rule file)",
			      d->cfg.pin_dir, bpf_map__name(map), d->cfg.pin_dir);
			return -ENOENT;
		}
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
	/* The tcx attach types in the TC programs, as earlier daemons loaded
	 * them for their pinned links (attach/ needs none: bpf_link_create). */
	err = dynpf_lazy_open(d->skel, 0, DYNPF_LAZY_TCX, &d->lazy);
	if (err)
		return err;
	if (!d->adopted) {
		err = write_layout(d);
		if (err) {
			p_err("cannot write the maps' layout: %s", strerror(-err));
			return err;
		}
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
