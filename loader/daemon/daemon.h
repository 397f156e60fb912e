/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The daemon and its clients: one JSON object a line on the control socket,
 * a request {"cmd": ...} and its reply {"ok": true, ...} or {"ok": false,
 * "error": "..."} (docs/daemon.md).
 */
#ifndef DYNPF_LOADER_DAEMON_H
#define DYNPF_LOADER_DAEMON_H

#include <json-c/json.h>

#define DYNPF_DEFAULT_CONFIG "/etc/dynpf/dynpf.conf"
#define DYNPF_DEFAULT_SOCKET "/run/dynpf/dynpf.sock"
#define DYNPF_REQUEST_MAX (4 << 20) /* bytes of one request line */

/*
 * Take the pin directory dir for this process (an exclusive flock that goes
 * with it): the fd holding it, or -errno after saying which daemon holds it
 * and what to do (hint).
 */
int dynpf_lock_pin_dir(const char *dir, const char *hint);

#endif
