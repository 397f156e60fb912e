// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The metrics' HTTP server (metrics_listen): libmicrohttpd, driven by the
 * daemon's own loop (its epoll descriptor is one more in the poll, and
 * MHD_run() serves what is ready without blocking), so a scrape runs in the
 * one thread that owns the daemon's state, between two of its requests,
 * and never holds it: a client gets 10 s of quiet before it is dropped.
 *
 *   GET /metrics   the metrics (metrics.c), text format 0.0.4
 *   GET /          a line saying where they are
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <microhttpd.h>

#include "daemon/internal.h"
#include "lib/log.h"

#define HTTP_CLIENTS 16      /* connections at once */
#define HTTP_IDLE_SECONDS 10 /* a quiet connection is dropped then */

struct dynpf_http {
	struct MHD_Daemon *mhd;
	int fd; /* MHD's epoll descriptor */
};

static enum MHD_Result reply(struct MHD_Connection *conn, unsigned int status, char *body,
			     size_t len, enum MHD_ResponseMemoryMode mode, const char *type)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(len, body, mode);
	enum MHD_Result ret;

	if (!r) {
		if (mode == MHD_RESPMEM_MUST_FREE)
			free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = MHD_queue_response(conn, status, r);
	MHD_destroy_response(r);
	return ret;
}

#define TEXT "text/plain; charset=utf-8"

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
				  const char *method, const char *version, const char *upload,
				  size_t *upload_size, void **state)
{
	static char not_found[] = "not found: the metrics are at /metrics\n";
	static char index[] = "dynpf: metrics at /metrics\n";
	static char no_method[] = "GET or HEAD only\n";
	static char no_memory[] = "out of memory\n";
	struct daemon *d = cls;
	size_t len;
	char *text;

	(void)version;
	(void)upload;
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply(conn, MHD_HTTP_METHOD_NOT_ALLOWED, no_method, strlen(no_method),
			     MHD_RESPMEM_PERSISTENT, TEXT);
	/* GET has no body: answer at the first call. */
	(void)state;
	(void)upload_size;
	if (!strcmp(url, "/"))
		return reply(conn, MHD_HTTP_OK, index, strlen(index), MHD_RESPMEM_PERSISTENT, TEXT);
	if (strcmp(url, "/metrics"))
		return reply(conn, MHD_HTTP_NOT_FOUND, not_found, strlen(not_found),
			     MHD_RESPMEM_PERSISTENT, TEXT);
	text = metrics_text(d, &len);
	if (!text)
		return reply(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, no_memory, strlen(no_memory),
			     MHD_RESPMEM_PERSISTENT, TEXT);
	return reply(conn, MHD_HTTP_OK, text, len, MHD_RESPMEM_MUST_FREE,
		     "text/plain; version=0.0.4; charset=utf-8");
}

/* libmicrohttpd's own errors, in the daemon's log. */
static void mhd_log(void *cls, const char *fmt, va_list ap)
{
	(void)cls;
	dynpf_log_lib(LOG_WARN, fmt, ap);
}

/* The listening socket: our own, so that its errors name the setting. */
static int listen_socket(const struct daemon *d)
{
	const struct sockaddr_storage *a = &d->cfg.metrics_addr;
	socklen_t len =
		a->ss_family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
	int fd = socket(a->ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0), one = 1,
	    zero = 0, err;

	if (fd < 0)
		goto fail;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	/* "[::]:PORT" or ":PORT": IPv4 too. */
	if (a->ss_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	if (bind(fd, (const struct sockaddr *)a, len) || listen(fd, HTTP_CLIENTS))
		goto fail;
	return fd;
fail:
	err = -errno;
	p_err("metrics_listen %s (config %s): cannot listen: %s", d->cfg.metrics_listen,
	      d->config_path, strerror(-err));
	if (fd >= 0)
		close(fd);
	return err;
}

int http_open(struct daemon *d)
{
	const union MHD_DaemonInfo *info;
	struct dynpf_http *h;
	int fd;

	if (!d->cfg.metrics_listen[0])
		return 0;
	fd = listen_socket(d);
	if (fd < 0)
		return fd;
	h = calloc(1, sizeof(*h));
	if (!h) {
		close(fd);
		return -ENOMEM;
	}
	/* No thread of its own: MHD_run() from the daemon's loop. */
	h->mhd = MHD_start_daemon(MHD_USE_EPOLL | MHD_USE_ERROR_LOG, 0, NULL, NULL, on_request, d,
				  MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL,
				  MHD_OPTION_LISTEN_SOCKET, fd, MHD_OPTION_CONNECTION_LIMIT,
				  (unsigned int)HTTP_CLIENTS, MHD_OPTION_CONNECTION_TIMEOUT,
				  (unsigned int)HTTP_IDLE_SECONDS, MHD_OPTION_END);
	info = h->mhd ? MHD_get_daemon_info(h->mhd, MHD_DAEMON_INFO_EPOLL_FD) : NULL;
	if (!info) {
		p_err("metrics_listen %s: cannot start the HTTP server (libmicrohttpd)",
		      d->cfg.metrics_listen);
		if (h->mhd)
			MHD_stop_daemon(h->mhd);
		else
			close(fd);
		free(h);
		return -EIO;
	}
	h->fd = info->epoll_fd;
	d->http = h;
	pr_info("metrics at http://%s/metrics\n", d->cfg.metrics_listen);
	return 0;
}

int http_fd(const struct daemon *d)
{
	return d->http ? d->http->fd : -1;
}

/* How long the loop may sleep before libmicrohttpd has work (timeouts): -1 none. */
int64_t http_timeout_ms(const struct daemon *d)
{
	MHD_UNSIGNED_LONG_LONG ms;

	if (!d->http || MHD_get_timeout(d->http->mhd, &ms) != MHD_YES)
		return -1;
	return ms > INT32_MAX ? INT32_MAX : (int64_t)ms;
}

void http_run(struct daemon *d)
{
	if (d->http)
		MHD_run(d->http->mhd);
}

void http_close(struct daemon *d)
{
	if (!d->http)
		return;
	/* MHD closes the listening socket it was given. */
	MHD_stop_daemon(d->http->mhd);
	free(d->http);
	d->http = NULL;
}
