/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The CLI's side of the daemon's socket (client.c): one JSON request a
 * line, {"cmd": ...}, and its reply {"ok": true, ...} or {"ok": false,
 * "error": "..."} (docs/daemon.md). The commands that talk to the daemon
 * (status.c, rule.c, rules.c, attach.c) build their requests here.
 */
#ifndef DYNPF_CLI_CLIENT_H
#define DYNPF_CLI_CLIENT_H

#include <json-c/json.h>

#include "daemon/daemon.h" /* DYNPF_DEFAULT_SOCKET, DYNPF_REQUEST_MAX */

/* Seconds the CLI waits for the daemon: --timeout, $DYNPF_TIMEOUT, or this. */
#define DYNPF_CLIENT_TIMEOUT 60.0
extern double dynpf_client_timeout;

/*
 * Send req (consumed) to the daemon at sock, wait for the reply
 * (dynpf_client_timeout seconds at most). The reply, or NULL after printing
 * why (no daemon, not allowed, a broken reply, no answer in time).
 */
json_object *dynpf_client_call(const char *sock, json_object *req);

/* The reply's "ok", printing its "error" when not (and nothing for NULL). */
int dynpf_client_ok(json_object *rep);

/* The daemon's socket: $DYNPF_SOCKET, or DYNPF_DEFAULT_SOCKET. */
const char *dynpf_client_socket(void);

/* A new request {"cmd": cmd}, for the caller to add its fields to. */
json_object *dynpf_client_request(const char *cmd);

/*
 * Send req (consumed) to the daemon's socket; with -j, print the reply as
 * one JSON line. The reply when it is "ok", else NULL after printing why.
 */
json_object *dynpf_client_send(json_object *req);

/*
 * A command's whole exchange: send req (consumed), then print the reply as
 * JSON with -j, else as text(rep, arg) says. DYNPF_EXIT_OK, or
 * DYNPF_EXIT_USAGE after printing why.
 */
int dynpf_client_run(json_object *req, void (*text)(json_object *rep, const void *arg),
		     const void *arg);

/*
 * A connection kept for a stream of requests (`rules apply`): each request
 * sent as a line, its reply read, the next one on the same connection.
 */
struct dynpf_client_conn {
	int fd;
	char *buf; /* what was read past the last reply */
	size_t len, cap;
	int64_t last_ms; /* when the last reply came */
};

/* Connect to the daemon at sock: 0, or -1 after printing why. */
int dynpf_client_connect(struct dynpf_client_conn *c, const char *sock);
/*
 * Send req (consumed) and read its reply, within dynpf_client_timeout: the
 * reply, or NULL after printing why.
 */
json_object *dynpf_client_exchange(struct dynpf_client_conn *c, const char *sock, json_object *req);
void dynpf_client_disconnect(struct dynpf_client_conn *c);

/* A field of a reply. */
#define jget(o, k) json_object_object_get(o, k)

#endif
