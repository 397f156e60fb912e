// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The daemon's client (client.h): the socket's path, a request built,
 * sent and its reply read against dynpf_client_timeout. The commands that
 * use it live in their own files (cmds.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "cli/client.h"
#include "cli/cmds.h"
#include "lib/log.h"
#include "lib/sockio.h"

/* How long to wait for the daemon (--timeout, $DYNPF_TIMEOUT). */
double dynpf_client_timeout = DYNPF_CLIENT_TIMEOUT;

json_object *dynpf_client_call(const char *sock, json_object *req)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	const char *s = json_object_to_json_string_ext(req, JSON_C_TO_STRING_PLAIN);
	int64_t ms = (int64_t)(dynpf_client_timeout * 1000), deadline = dynpf_now_ms() + ms;
	struct timeval tv = { .tv_sec = ms / 1000, .tv_usec = ms % 1000 * 1000 };
	size_t cap = 65536, len = 0;
	json_object *rep = NULL;
	char *buf = NULL, *nl;
	ssize_t n = 0;
	int fd, err;

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	/* A daemon too busy to accept: connect waits SO_SNDTIMEO at most. */
	if (fd >= 0)
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		if (errno == EACCES)
			p_err("cannot reach the daemon at %s: %s (only root, and the daemon's "
			      "socket_group if it has one, may use it)",
			      sock, strerror(errno));
		else if (errno == EAGAIN)
			goto timeout;
		else
			p_err("cannot reach the daemon at %s: %s (is `dynpf daemon` running?)",
			      sock, strerror(errno));
		goto out;
	}
	/* A daemon that refuses us replies and closes before reading: the
	 * write then fails with EPIPE, and the reply is still there to read. */
	err = dynpf_write_line_by(fd, s, deadline);
	if (err == -ETIMEDOUT)
		goto timeout;
	if (err && err != -EPIPE) {
		p_err("cannot send to the daemon: %s", strerror(-err));
		goto out;
	}
	shutdown(fd, SHUT_WR);
	buf = malloc(cap);
	while (buf) {
		if (len == cap) {
			char *t = realloc(buf, cap *= 2);

			if (!t)
				break;
			buf = t;
		}
		n = dynpf_read_by(fd, buf + len, cap - len, deadline);
		if (n <= 0)
			break;
		len += n;
	}
	if (n == -ETIMEDOUT)
		goto timeout;
	nl = buf ? memchr(buf, '\n', len) : NULL;
	if (!nl || !(rep = json_tokener_parse((*nl = 0, buf))))
		p_err("no reply from the daemon at %s", sock);
	goto out;
timeout:
	p_err("the daemon at %s did not answer within %g s: is it stopped or stuck? "
	      "It drops a request whose client has gone before it starts on it; "
	      "--timeout SECONDS waits longer",
	      sock, dynpf_client_timeout);
out:
	free(buf);
	if (fd >= 0)
		close(fd);
	json_object_put(req);
	return rep;
}

int dynpf_client_ok(json_object *rep)
{
	json_object *ok, *err;

	if (!rep)
		return 0;
	if (json_object_object_get_ex(rep, "ok", &ok) && json_object_get_boolean(ok))
		return 1;
	if (json_object_object_get_ex(rep, "error", &err))
		p_err("%s", json_object_get_string(err));
	else
		p_err("the daemon refused the request");
	return 0;
}

const char *dynpf_client_socket(void)
{
	const char *e = getenv("DYNPF_SOCKET");

	return e && *e ? e : DYNPF_DEFAULT_SOCKET;
}

json_object *dynpf_client_request(const char *cmd)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "cmd", json_object_new_string(cmd));
	return o;
}

json_object *dynpf_client_send(json_object *req)
{
	json_object *rep = dynpf_client_call(dynpf_client_socket(), req);

	if (!dynpf_client_ok(rep)) {
		json_object_put(rep);
		return NULL;
	}
	if (dynpf_json)
		printf("%s\n", json_object_to_json_string_ext(rep, JSON_C_TO_STRING_PLAIN));
	return rep;
}

int dynpf_client_run(json_object *req, void (*text)(json_object *rep, const void *arg),
		     const void *arg)
{
	json_object *rep = dynpf_client_send(req);

	if (!rep)
		return DYNPF_EXIT_USAGE;
	if (!dynpf_json)
		text(rep, arg);
	json_object_put(rep);
	return DYNPF_EXIT_OK;
}

int dynpf_client_connect(struct dynpf_client_conn *c, const char *sock)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int64_t ms = (int64_t)(dynpf_client_timeout * 1000);
	struct timeval tv = { .tv_sec = ms / 1000, .tv_usec = ms % 1000 * 1000 };

	memset(c, 0, sizeof(*c));
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock);
	c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->fd >= 0)
		setsockopt(c->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (c->fd < 0 || connect(c->fd, (struct sockaddr *)&sa, sizeof(sa))) {
		p_err("cannot reach the daemon at %s: %s (is `dynpf daemon` running?)", sock,
		      strerror(errno));
		if (c->fd >= 0)
			close(c->fd);
		c->fd = -1;
		return -1;
	}
	c->last_ms = dynpf_now_ms();
	return 0;
}

void dynpf_client_disconnect(struct dynpf_client_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	free(c->buf);
	memset(c, 0, sizeof(*c));
	c->fd = -1;
}

json_object *dynpf_client_exchange(struct dynpf_client_conn *c, const char *sock, json_object *req)
{
	const char *s = json_object_to_json_string_ext(req, JSON_C_TO_STRING_PLAIN);
	int64_t deadline = dynpf_now_ms() + (int64_t)(dynpf_client_timeout * 1000);
	json_object *rep = NULL;
	char *nl;
	ssize_t n;
	int err;

	err = dynpf_write_line_by(c->fd, s, deadline);
	json_object_put(req);
	if (err) {
		p_err("cannot send to the daemon at %s: %s", sock, strerror(-err));
		return NULL;
	}
	while (!(nl = c->buf ? memchr(c->buf, '\n', c->len) : NULL)) {
		if (c->len == c->cap) {
			size_t cap = c->cap ? 2 * c->cap : 65536;
			char *t = cap <= 4 * DYNPF_REQUEST_MAX ? realloc(c->buf, cap) : NULL;

			if (!t) {
				p_err("a reply of the daemon at %s is too long", sock);
				return NULL;
			}
			c->buf = t;
			c->cap = cap;
		}
		n = dynpf_read_by(c->fd, c->buf + c->len, c->cap - c->len, deadline);
		if (n == -ETIMEDOUT) {
			p_err("the daemon at %s did not answer within %g s: is it stopped or stuck?",
			      sock, dynpf_client_timeout);
			return NULL;
		}
		if (n <= 0) {
			p_err("the daemon at %s closed the connection%s%s", sock, n ? ": " : "",
			      n ? strerror(-n) : "");
			return NULL;
		}
		c->len += n;
	}
	*nl = 0;
	rep = json_tokener_parse(c->buf);
	c->len -= nl + 1 - c->buf;
	memmove(c->buf, nl + 1, c->len);
	c->last_ms = dynpf_now_ms();
	if (!rep)
		p_err("no reply from the daemon at %s", sock);
	return rep;
}
