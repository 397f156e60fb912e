// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The daemon's control socket: opening it (refusing one another daemon
 * answers on), checking a peer (root, or the socket_group), and serving one
 * client, request line by request line, with deadlines so that a client who
 * stalls holds nobody up.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "daemon/daemon.h"
#include "daemon/internal.h"
#include "lib/log.h"
#include "lib/sockio.h"
#include "lib/util.h"

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
void serve_client(struct daemon *d, int fd)
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
		const char *msg =
			d->cfg.socket_gid < 0
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
			int64_t by = deadline, ex = changes_next_expiry_ms(d);

			if (len == cap) {
				char *t;

				if (cap >= DYNPF_REQUEST_MAX)
					goto too_big;
				t = realloc(buf, cap *= 2);
				if (!t)
					goto out;
				buf = t;
			}
			/* A rule running out meanwhile is removed on time. */
			if (ex >= 0 && dynpf_now_ms() + ex < by)
				by = dynpf_now_ms() + ex;
			n = dynpf_read_by(fd, buf + len, cap - len, by);
			if (n == -ETIMEDOUT && dynpf_now_ms() < deadline) {
				changes_expire(d);
				continue;
			}
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
		changes_expire(d);
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
int socket_in_use(const char *path)
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
		      "a socket of its own",
		      path);
	return used;
}

int open_control_socket(struct daemon *d)
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
