// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * dynpf attach and dynpf detach, through the running daemon; dynpf detach
 * --all, without one: what dynpf left on the interfaces of this network
 * namespace and in its pin directory, removed.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "cli/client.h"
#include "cli/cmds.h"
#include "attach/clsact.h"
#include "daemon/daemon.h"
#include "lib/log.h"

static void attached(json_object *rep, const void *iface)
{
	printf("%s: attached (%s)\n", (const char *)iface,
	       json_object_get_string(jget(rep, "attach")));
}

static void detached(json_object *rep, const void *iface)
{
	(void)rep;
	printf("%s: detached\n", (const char *)iface);
}

/* dynpf attach IFACE [HOOK] [frags] / dynpf detach IFACE [HOOK] */
static int attach_detach(int argc, char **argv, bool attach)
{
	json_object *req;

	if (argc < 2 || argc > (attach ? 4 : 3) || dynpf_is_help(argv[1])) {
		/* --help: the usage on stdout, exit 0; wrong words: on stderr, 2. */
		FILE *out = argc >= 2 && dynpf_is_help(argv[1]) ? stdout : stderr;

		if (attach)
			fprintf(out,
				"Usage: dynpf attach IFACE [xdp|xdp-generic|tc-ingress|tc-egress] "
				"[frags]\n\nAttach the running daemon's programs to IFACE (default "
				"xdp); frags: the XDP\nmulti-buffer program, for jumbo frames.\n");
		else
			fprintf(out,
				"Usage: dynpf detach IFACE [HOOK]\n"
				"       dynpf detach --all [--pin-dir DIR]\n\nDetach the running "
				"daemon's programs from IFACE (every hook, or HOOK).\n--all, without a "
				"daemon: remove dynpf's XDP programs from every interface\nof this "
				"network namespace, its pinned tcx links and maps, and DIR\n(default "
				"/sys/fs/bpf/dynpf).\n");
		return out == stdout ? DYNPF_EXIT_OK : DYNPF_EXIT_USAGE;
	}
	req = dynpf_client_request(attach ? "attach" : "detach");
	json_object_object_add(req, "name", json_object_new_string(argv[1]));
	if (argc > 2)
		json_object_object_add(req, "hook", json_object_new_string(argv[2]));
	if (attach && argc > 3) {
		if (strcmp(argv[3], "frags")) {
			json_object_put(req);
			p_err("attach: '%s': expected frags", argv[3]);
			return DYNPF_EXIT_USAGE;
		}
		json_object_object_add(req, "frags", json_object_new_boolean(1));
	}
	return dynpf_client_run(req, attach ? attached : detached, argv[1]);
}

int cmd_attach(int argc, char **argv)
{
	return attach_detach(argc, argv, true);
}

/* dynpf's cls_bpf filter on one clsact hook, if its program is dynpf's: removed. */
static int detach_clsact_offline(const char *ifname, int ifindex, bool ingress)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info), id;
	int fd, err;

	if (dynpf_clsact_query(ifindex, ingress, &id) || !id)
		return 0;
	fd = bpf_prog_get_fd_by_id(id);
	if (fd < 0)
		return 0;
	err = bpf_prog_get_info_by_fd(fd, &info, &len);
	close(fd);
	if (err || strncmp(info.name, "dynpf_", 6))
		return 0;
	err = dynpf_clsact_detach(ifindex, ingress);
	if (err) {
		p_err("%s: cannot remove the cls_bpf filter (%s): %s", ifname,
		      ingress ? "ingress" : "egress", strerror(-err));
		return -1;
	}
	printf("%s: clsact filter %s (id %u) removed from %s\n", ifname, info.name, id,
	       ingress ? "ingress" : "egress");
	return 1;
}

/*
 * dynpf detach --all [--pin-dir DIR]: without a daemon, remove what dynpf
 * left: its XDP programs and clsact filters on every interface of this
 * network namespace (and the clsact qdiscs it made), the tcx links and maps
 * pinned under DIR, and DIR.
 */
static int detach_all_offline(const char *pin_dir)
{
	struct if_nameindex *ifs = if_nameindex(), *i;
	int n = 0, bad = 0;
	DIR *d;

	for (i = ifs; i && i->if_index; i++) {
		struct bpf_prog_info info = {};
		__u32 id = 0, len = sizeof(info);
		int fd;

		for (int ing = 0; ing < 2; ing++) {
			int r = detach_clsact_offline(i->if_name, i->if_index, ing);

			n += r > 0;
			bad += r < 0;
		}
		if (bpf_xdp_query_id(i->if_index, 0, &id) || !id)
			continue;
		fd = bpf_prog_get_fd_by_id(id);
		if (fd < 0)
			continue;
		if (!bpf_prog_get_info_by_fd(fd, &info, &len) && !strncmp(info.name, "dynpf_", 6)) {
			LIBBPF_OPTS(bpf_xdp_attach_opts, o, .old_prog_fd = fd);

			if (bpf_xdp_detach(i->if_index, 0, &o)) {
				p_err("%s: cannot detach the XDP program %u", i->if_name, id);
				bad++;
			} else {
				printf("%s: XDP program %s (id %u) detached\n", i->if_name,
				       info.name, id);
				n++;
			}
		}
		close(fd);
	}
	if (ifs)
		if_freenameindex(ifs);
	d = opendir(pin_dir);
	if (d) {
		struct dirent *de;
		char path[PATH_MAX];

		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", pin_dir, de->d_name);
			if (!strncmp(de->d_name, "clsact_", 7)) {
				/* dynpf made this interface's clsact qdisc. */
				int ifindex = if_nametoindex(de->d_name + 7);

				if (ifindex && dynpf_clsact_remove_if_empty(ifindex) > 0)
					printf("%s: clsact qdisc removed\n", de->d_name + 7);
				if (rmdir(path)) {
					p_err("%s: %s", path, strerror(errno));
					bad++;
				}
				continue;
			}
			if (!strncmp(de->d_name, "link_", 5)) {
				int fd = bpf_obj_get(path);

				if (fd >= 0) {
					bpf_link_detach(fd);
					close(fd);
				}
				printf("%s: link detached\n", path);
				n++;
			}
			if (unlink(path)) {
				p_err("%s: %s", path, strerror(errno));
				bad++;
			}
		}
		closedir(d);
		if (rmdir(pin_dir) && errno != ENOENT) {
			p_err("%s: %s", pin_dir, strerror(errno));
			bad++;
		}
	}
	rmdir("/sys/fs/bpf/xdp"); /* libxdp's, when it is empty */
	printf("%d attachment%s removed, pins under %s gone\n", n, n == 1 ? "" : "s", pin_dir);
	return bad ? DYNPF_EXIT_USAGE : DYNPF_EXIT_OK;
}

int cmd_detach(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "--all")) {
		const char *pin_dir = "/sys/fs/bpf/dynpf";
		int lock = -1, r;

		if (argc == 4 && !strcmp(argv[2], "--pin-dir"))
			pin_dir = argv[3];
		else if (argc != 2) {
			p_err("detach --all: expected [--pin-dir DIR]");
			return DYNPF_EXIT_USAGE;
		}
		/* Not under a running daemon: it would re-pin and re-attach. */
		if (!access(pin_dir, F_OK)) {
			lock = dynpf_lock_pin_dir(pin_dir, "stop it first, or detach through "
							   "it (dynpf detach IFACE)");
			if (lock < 0)
				return DYNPF_EXIT_USAGE;
		}
		r = detach_all_offline(pin_dir);
		if (lock >= 0)
			close(lock);
		return r;
	}
	return attach_detach(argc, argv, false);
}
