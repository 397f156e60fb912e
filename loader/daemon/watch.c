// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The rule file, loaded (at a fresh start, on SIGHUP) and watched: when its
 * bytes change on disk it is loaded again, as one transaction, and a bad
 * one is refused with the old set kept (handlers.c: rules_load_text).
 *
 * A watch on the file itself would miss the way Kubernetes updates a
 * ConfigMap volume: the file the configuration names is a symlink
 * `rules -> ..data/rules` that never changes; the kubelet writes the new
 * files into a new directory `..2026_...`, points a symlink `..data_tmp` at
 * it, renames that over `..data`, and removes the old directory. So
 * inotify watches the directory holding the configured path (the rename
 * is seen there) and the directory the path's target resolves into (an
 * editor's in-place write to the target is seen there), re-resolved after
 * every change. Events are debounced (WATCH_DEBOUNCE_MS of quiet), then
 * the file is read and its SHA-256 compared with the last one loaded or
 * refused: only new bytes are loaded, once.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <nettle/sha2.h>

#include "daemon/internal.h"
#include "lib/log.h"
#include "lib/util.h"

#define WATCH_DEBOUNCE_MS 200
#define RULES_FILE_MAX (64u << 20) /* as the rule language reads one */
#define WATCH_MASK                                                                          \
	(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_MODIFY | \
	 IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

/* The whole file, malloc()ed and NUL-terminated, or NULL with errno set. */
static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "re");
	size_t cap = 65536, n;
	char *buf = NULL, *nb;
	int e = 0;

	*len = 0;
	if (!f)
		return NULL;
	for (;;) {
		nb = cap <= RULES_FILE_MAX ? realloc(buf, cap + 1) : NULL;
		if (!nb) {
			e = cap <= RULES_FILE_MAX ? ENOMEM : EFBIG;
			break;
		}
		buf = nb;
		n = fread(buf + *len, 1, cap - *len, f);
		*len += n;
		if (*len < cap) {
			e = ferror(f) ? EIO : 0;
			break;
		}
		cap *= 2;
	}
	fclose(f);
	if (e) {
		free(buf);
		errno = e;
		return NULL;
	}
	buf[*len] = 0;
	return buf;
}

static void sha256_of(const char *text, size_t len, unsigned char *sum)
{
	struct sha256_ctx h;

	sha256_init(&h);
	sha256_update(&h, len, (const uint8_t *)text);
	sha256_digest(&h, SHA256_DIGEST_SIZE, sum);
}

int rules_reload(struct daemon *d, const char *why, bool force)
{
	const char *path = d->cfg.rules;
	unsigned char sum[SHA256_DIGEST_SIZE];
	size_t len;
	char *text = read_all(path, &len);
	int err;

	if (!text) {
		char msg[PATH_MAX + 64];

		err = -errno;
		/* Said once: the log may be in the directory watched. */
		if (!force && err == d->watch.read_err)
			return err;
		d->watch.read_err = err;
		snprintf(msg, sizeof(msg), "%s: %s", path, strerror(-err));
		p_err("%s (%s): %s", msg, why,
		      strcmp(why, "start") ? "the rule set kept" : "nothing loaded");
		counts_reload(d, path, err, msg, 0, 0);
		d->watch.have_sum = false; /* loaded when it is back */
		return err;
	}
	d->watch.read_err = 0;
	sha256_of(text, len, sum);
	if (!force && d->watch.have_sum && !memcmp(sum, d->watch.sum, sizeof(sum))) {
		free(text);
		return 0;
	}
	memcpy(d->watch.sum, sum, sizeof(sum));
	d->watch.have_sum = true;
	err = rules_load_text(d, path, text, len, why);
	free(text);
	return err;
}

/* dirname() of a copy of path into out. */
static void dir_of(const char *path, char *out, size_t len)
{
	char tmp[PATH_MAX];

	snprintf(tmp, sizeof(tmp), "%s", path);
	snprintf(out, len, "%s", dirname(tmp));
}

/*
 * The watches where they belong now: the configured path's directory (again,
 * if it went away), and the one its target resolves into, if that is
 * another (the old one's watch goes when a kubelet removes it).
 */
static void watch_arm(struct daemon *d)
{
	struct rules_watch *w = &d->watch;
	char dir[PATH_MAX], real[PATH_MAX], rdir[PATH_MAX], tdir[PATH_MAX] = "";

	dir_of(d->cfg.rules, dir, sizeof(dir));
	if (w->wd_dir < 0) {
		w->wd_dir = inotify_add_watch(w->fd, dir, WATCH_MASK);
		if (w->wd_dir < 0)
			pr_warn("%s: cannot watch its directory %s: %s\n", d->cfg.rules, dir,
				strerror(errno));
	}
	if (realpath(d->cfg.rules, real) && realpath(dir, rdir)) {
		dir_of(real, tdir, sizeof(tdir));
		if (!strcmp(tdir, rdir))
			tdir[0] = 0; /* the same directory: one watch */
	}
	if (!strcmp(tdir, w->target_dir) && (w->wd_target >= 0 || !tdir[0]))
		return;
	/* A watch on a directory inotify already watches is the same wd. */
	if (w->wd_target >= 0 && w->wd_target != w->wd_dir)
		inotify_rm_watch(w->fd, w->wd_target);
	w->wd_target = -1;
	snprintf(w->target_dir, sizeof(w->target_dir), "%s", tdir);
	if (!tdir[0])
		return;
	w->wd_target = inotify_add_watch(w->fd, tdir, WATCH_MASK);
	if (w->wd_target < 0)
		pr_warn("%s: cannot watch %s, where it leads: %s\n", d->cfg.rules, tdir,
			strerror(errno));
	else
		pr_debug("%s: watching %s and %s\n", d->cfg.rules, dir, tdir);
}

int watch_open(struct daemon *d)
{
	struct rules_watch *w = &d->watch;
	char dir[PATH_MAX];

	w->fd = w->wd_dir = w->wd_target = -1;
	w->target_dir[0] = 0;
	if (!d->cfg.rules[0] || !d->cfg.rules_watch)
		return 0;
	w->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (w->fd < 0) {
		p_err("cannot watch the rule file (inotify): %s", strerror(errno));
		return -errno;
	}
	watch_arm(d);
	if (w->wd_dir < 0) {
		dir_of(d->cfg.rules, dir, sizeof(dir));
		p_err("%s: cannot watch %s for changes (\"rules_watch\": false goes without)",
		      d->cfg.rules, dir);
		return -ENOENT;
	}
	/* What is there now is the baseline: what a fresh start loaded, or
	 * what a restart found (it keeps the pinned set: SIGHUP loads it). */
	if (!w->have_sum) {
		size_t len;
		char *text = read_all(d->cfg.rules, &len);

		if (text) {
			sha256_of(text, len, w->sum);
			w->have_sum = true;
			free(text);
		}
	}
	dir_of(d->cfg.rules, dir, sizeof(dir));
	pr_info("%s: reloaded when it changes (watching %s%s%s)\n", d->cfg.rules, dir,
		w->target_dir[0] ? " and " : "", w->target_dir);
	return 0;
}

/* What inotify says: a look at the file is due once things are quiet. */
void watch_events(struct daemon *d)
{
	struct rules_watch *w = &d->watch;
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t n;

	while ((n = read(w->fd, buf, sizeof(buf))) > 0) {
		for (char *p = buf; p < buf + n;) {
			const struct inotify_event *ev = (const struct inotify_event *)p;

			if (ev->mask & IN_IGNORED) {
				/* Its directory was removed (an old ..2026_... one). */
				if (ev->wd == w->wd_target)
					w->wd_target = -1;
				if (ev->wd == w->wd_dir)
					w->wd_dir = -1;
			}
			p += sizeof(*ev) + ev->len;
		}
		w->due_ms = dynpf_now_ms() + WATCH_DEBOUNCE_MS;
	}
	if (n < 0 && errno == EINVAL)
		pr_warn("inotify: an event larger than its buffer\n");
}

/* Things are quiet: the watches where they belong, the file loaded if new. */
void watch_due(struct daemon *d)
{
	d->watch.due_ms = 0;
	watch_arm(d);
	rules_reload(d, "changed on disk", false);
}

void watch_close(struct daemon *d)
{
	if (d->watch.fd >= 0)
		close(d->watch.fd);
	d->watch.fd = -1;
}
