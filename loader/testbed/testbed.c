// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * replay --testbed: two network namespaces and a veth pair between them,
 * made and removed with plain syscalls and rtnetlink (no `ip` needed).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>

#include "lib/log.h"
#include "lib/nl.h"
#include "testbed/testbed.h"

#define NETNS_RUN_DIR "/run/netns"

/*
 * Addresses of the two ends: documentation and benchmarking ranges only
 * (RFC 2544's 198.18.0.0/15, RFC 3849's 2001:db8::/32), apart from every
 * address the captures in pcap-tests/ use.
 */
static const struct {
	const char *v4, *v6;
} tb_addr[2] = {
	{ "198.19.255.1", "2001:db8:ffff::1" }, /* rx */
	{ "198.19.255.2", "2001:db8:ffff::2" }, /* tx */
};

/* ------------------------------------------------------------ rtnetlink */

struct nlreq {
	struct nlmsghdr n;
	char buf[1024];
};

static struct nlattr *nla_put(struct nlmsghdr *n, int type, const void *data, size_t len)
{
	struct nlattr *a = (struct nlattr *)((char *)n + NLMSG_ALIGN(n->nlmsg_len));

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy((char *)a + NLA_HDRLEN, data, len);
	n->nlmsg_len = NLMSG_ALIGN(n->nlmsg_len) + NLA_ALIGN(a->nla_len);
	return a;
}

static struct nlattr *nla_nest(struct nlmsghdr *n, int type)
{
	return nla_put(n, type | NLA_F_NESTED, NULL, 0);
}

static void nla_nest_end(struct nlmsghdr *n, struct nlattr *nest)
{
	nest->nla_len = (char *)n + n->nlmsg_len - (char *)nest;
}

/*
 * Send one request on a new socket in the current namespace and wait for
 * its answer: the error code of the ACK, or with reply set the first
 * message (RTM_GETLINK).
 */
static int nl_talk(struct nlmsghdr *n, void *reply, size_t reply_len)
{
	char buf[8192];
	int fd = dynpf_nl_open(0, 0), err;
	ssize_t r;

	if (fd < 0)
		return fd;
	n->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
	n->nlmsg_seq = 1;
	if (send(fd, n, n->nlmsg_len, 0) < 0) {
		err = -errno;
		goto out;
	}
	for (;;) {
		struct nlmsghdr *h;

		r = recv(fd, buf, sizeof(buf), 0);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			goto out;
		}
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, (size_t)r); h = NLMSG_NEXT(h, r)) {
			if (h->nlmsg_type == NLMSG_ERROR) {
				err = ((struct nlmsgerr *)NLMSG_DATA(h))->error;
				goto out;
			}
			if (reply && h->nlmsg_len <= reply_len) {
				memcpy(reply, h, h->nlmsg_len);
				reply = NULL; /* the ACK follows */
			}
		}
	}
out:
	close(fd);
	return err;
}

static void nl_init(struct nlreq *req, int type, int flags, const void *hdr, size_t hdr_len)
{
	memset(req, 0, sizeof(*req));
	req->n.nlmsg_len = NLMSG_LENGTH(hdr_len);
	req->n.nlmsg_type = type;
	req->n.nlmsg_flags = flags;
	memcpy(NLMSG_DATA(&req->n), hdr, hdr_len);
}

/* IFLA_MTU and IFLA_LINK of ifindex, in the current namespace. */
static int nl_getlink(int ifindex, int *mtu, int *link)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC, .ifi_index = ifindex };
	struct {
		struct nlmsghdr n;
		char buf[8192];
	} rep;
	struct nlreq req;
	struct rtattr *a;
	int len, err;

	nl_init(&req, RTM_GETLINK, 0, &ifi, sizeof(ifi));
	memset(&rep, 0, sizeof(rep));
	err = nl_talk(&req.n, &rep, sizeof(rep));
	if (err)
		return err;
	if (rep.n.nlmsg_type != RTM_NEWLINK)
		return -ENODEV;
	*link = 0;
	len = rep.n.nlmsg_len - NLMSG_LENGTH(sizeof(ifi));
	for (a = IFLA_RTA(NLMSG_DATA(&rep.n)); RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		if (a->rta_type == IFLA_MTU)
			memcpy(mtu, RTA_DATA(a), sizeof(*mtu));
		else if (a->rta_type == IFLA_LINK)
			memcpy(link, RTA_DATA(a), sizeof(*link));
	}
	return 0;
}

int dynpf_if_link(int ifindex)
{
	int mtu = 0, link = 0, err = nl_getlink(ifindex, &mtu, &link);

	return err ?: link;
}

int dynpf_if_mtu(int ifindex)
{
	int mtu = 0, link = 0, err = nl_getlink(ifindex, &mtu, &link);

	return err ?: mtu;
}

/* In the rx namespace: the veth pair, its tx end put in the tx namespace. */
static int nl_add_veth(unsigned int mtu, int tx_ns)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct nlattr *li, *data, *peer;
	struct nlreq req;

	nl_init(&req, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL, &ifi, sizeof(ifi));
	nla_put(&req.n, IFLA_IFNAME, DYNPF_TB_RX_IF, sizeof(DYNPF_TB_RX_IF));
	nla_put(&req.n, IFLA_MTU, &mtu, sizeof(mtu));
	li = nla_nest(&req.n, IFLA_LINKINFO);
	nla_put(&req.n, IFLA_INFO_KIND, "veth", sizeof("veth"));
	data = nla_nest(&req.n, IFLA_INFO_DATA);
	peer = nla_nest(&req.n, VETH_INFO_PEER);
	/* The peer's attributes follow its own ifinfomsg. */
	memset((char *)peer + NLA_HDRLEN, 0, sizeof(ifi));
	req.n.nlmsg_len += NLMSG_ALIGN(sizeof(ifi));
	nla_put(&req.n, IFLA_IFNAME, DYNPF_TB_TX_IF, sizeof(DYNPF_TB_TX_IF));
	nla_put(&req.n, IFLA_MTU, &mtu, sizeof(mtu));
	nla_put(&req.n, IFLA_NET_NS_FD, &tx_ns, sizeof(tx_ns));
	nla_nest_end(&req.n, peer);
	nla_nest_end(&req.n, data);
	nla_nest_end(&req.n, li);
	return nl_talk(&req.n, NULL, 0);
}

static int nl_add_addr(int ifindex, int family, const char *text, int plen)
{
	struct ifaddrmsg ifa = { .ifa_family = family,
				 .ifa_prefixlen = plen,
				 .ifa_flags = IFA_F_NODAD,
				 .ifa_index = ifindex };
	unsigned char addr[16];
	struct nlreq req;

	if (inet_pton(family, text, addr) != 1)
		return -EINVAL;
	nl_init(&req, RTM_NEWADDR, NLM_F_CREATE | NLM_F_EXCL, &ifa, sizeof(ifa));
	nla_put(&req.n, IFA_LOCAL, addr, family == AF_INET ? 4 : 16);
	nla_put(&req.n, IFA_ADDRESS, addr, family == AF_INET ? 4 : 16);
	return nl_talk(&req.n, NULL, 0);
}

static int nl_link_up(int ifindex)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC,
				 .ifi_index = ifindex,
				 .ifi_flags = IFF_UP,
				 .ifi_change = IFF_UP };
	struct nlreq req;

	nl_init(&req, RTM_NEWLINK, 0, &ifi, sizeof(ifi));
	return nl_talk(&req.n, NULL, 0);
}

/* ------------------------------------------------------------ namespaces */

/*
 * /run/netns a shared mount point, as `ip netns add` makes it, so that the
 * namespaces' bind mounts show in every mount namespace.
 */
static int netns_dir_ready(void)
{
	if (mkdir(NETNS_RUN_DIR, 0755) && errno != EEXIST)
		return -errno;
	if (!mount("", NETNS_RUN_DIR, "none", MS_SHARED | MS_REC, NULL))
		return 0;
	if (errno != EINVAL)
		return -errno;
	if (mount(NETNS_RUN_DIR, NETNS_RUN_DIR, "none", MS_BIND | MS_REC, NULL) ||
	    mount("", NETNS_RUN_DIR, "none", MS_SHARED | MS_REC, NULL))
		return -errno;
	return 0;
}

/* A new named namespace at path (what `ip netns add` does); its fd. */
static int netns_create(const char *path)
{
	int saved, fd, err = 0;

	fd = open(path, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	close(fd);
	saved = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (saved < 0) {
		err = -errno;
		goto fail;
	}
	if (unshare(CLONE_NEWNET)) {
		err = -errno;
		close(saved);
		goto fail;
	}
	if (mount("/proc/thread-self/ns/net", path, "none", MS_BIND, NULL))
		err = -errno;
	if (setns(saved, CLONE_NEWNET) && !err)
		err = -errno;
	close(saved);
	if (err)
		goto fail;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		goto fail;
	}
	return fd;
fail:
	umount2(path, MNT_DETACH);
	unlink(path);
	return err;
}

static void netns_remove(const char *path)
{
	umount2(path, MNT_DETACH);
	unlink(path);
}

/* Is pid a running dynpf? (a pid reused by another program is not) */
static bool dynpf_alive(long pid)
{
	char path[64], comm[32] = "";
	FILE *f;

	if (kill((pid_t)pid, 0) && errno == ESRCH)
		return false;
	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = 0;
	fclose(f);
	return !strncmp(comm, "dynpf", 5);
}

int dynpf_testbed_remove_stale(void)
{
	DIR *d = opendir(NETNS_RUN_DIR);
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char path[300], *end;
		long pid;

		if (strncmp(e->d_name, DYNPF_TB_PREFIX, strlen(DYNPF_TB_PREFIX)))
			continue;
		pid = strtol(e->d_name + strlen(DYNPF_TB_PREFIX), &end, 10);
		if (end == e->d_name + strlen(DYNPF_TB_PREFIX) || *end != '-' || pid == getpid() ||
		    dynpf_alive(pid))
			continue;
		snprintf(path, sizeof(path), "%s/%s", NETNS_RUN_DIR, e->d_name);
		pr_info("removing the test bed namespace %s left by dynpf %ld, which is gone\n",
			e->d_name, pid);
		netns_remove(path);
		n++;
	}
	closedir(d);
	return n;
}

/* The addresses of ifindex in namespace ns (side 0 rx, 1 tx), or its link up. */
static int tb_configure(int ns, int ifindex, int side, bool up)
{
	int saved, err = dynpf_netns_enter(ns, &saved);

	if (err)
		return err;
	if (up) {
		err = nl_link_up(ifindex);
	} else {
		err = nl_add_addr(ifindex, AF_INET, tb_addr[side].v4, 30);
		err = err ?: nl_add_addr(ifindex, AF_INET6, tb_addr[side].v6, 64);
	}
	dynpf_netns_leave(&saved);
	return err;
}

static int tb_ifindex(int ns, const char *name)
{
	int saved, idx, err = dynpf_netns_enter(ns, &saved);

	if (err)
		return err;
	idx = if_nametoindex(name);
	err = idx ? idx : -errno;
	dynpf_netns_leave(&saved);
	return err;
}

int dynpf_testbed_create(struct dynpf_testbed *tb, unsigned int mtu)
{
	int saved, err;
	const char *step;

	memset(tb, 0, sizeof(*tb));
	tb->rx_ns = tb->tx_ns = -1;
	tb->mtu = mtu;
	step = "/run/netns";
	err = netns_dir_ready();
	if (err)
		goto fail;
	snprintf(tb->ns_rx, sizeof(tb->ns_rx), "%s/%s%d-rx", NETNS_RUN_DIR, DYNPF_TB_PREFIX,
		 (int)getpid());
	snprintf(tb->ns_tx, sizeof(tb->ns_tx), "%s/%s%d-tx", NETNS_RUN_DIR, DYNPF_TB_PREFIX,
		 (int)getpid());
	step = "the rx namespace";
	tb->rx_ns = netns_create(tb->ns_rx);
	if (tb->rx_ns < 0) {
		err = tb->rx_ns;
		tb->ns_rx[0] = 0; /* not ours to remove */
		goto fail;
	}
	step = "the tx namespace";
	tb->tx_ns = netns_create(tb->ns_tx);
	if (tb->tx_ns < 0) {
		err = tb->tx_ns;
		tb->ns_tx[0] = 0;
		goto fail;
	}
	step = "the veth pair";
	err = dynpf_netns_enter(tb->rx_ns, &saved);
	if (err)
		goto fail;
	err = nl_add_veth(mtu, tb->tx_ns);
	dynpf_netns_leave(&saved);
	if (err)
		goto fail;
	step = "the interfaces";
	tb->rx_ifindex = tb_ifindex(tb->rx_ns, DYNPF_TB_RX_IF);
	tb->tx_ifindex = tb_ifindex(tb->tx_ns, DYNPF_TB_TX_IF);
	err = tb->rx_ifindex < 0 ? tb->rx_ifindex : tb->tx_ifindex < 0 ? tb->tx_ifindex : 0;
	if (err)
		goto fail;
	step = "the addresses";
	err = tb_configure(tb->rx_ns, tb->rx_ifindex, 0, false);
	err = err ?: tb_configure(tb->tx_ns, tb->tx_ifindex, 1, false);
	if (err)
		goto fail;
	pr_info("test bed: %s %s (%s/30, %s/64) <-> %s %s (%s, %s), mtu %u\n",
		tb->ns_rx + sizeof(NETNS_RUN_DIR), DYNPF_TB_RX_IF, tb_addr[0].v4, tb_addr[0].v6,
		tb->ns_tx + sizeof(NETNS_RUN_DIR), DYNPF_TB_TX_IF, tb_addr[1].v4, tb_addr[1].v6,
		mtu);
	return 0;
fail:
	p_err("--testbed: cannot make %s: %s", step, strerror(-err));
	dynpf_testbed_destroy(tb);
	return err;
}

int dynpf_testbed_up(struct dynpf_testbed *tb)
{
	int err = tb_configure(tb->rx_ns, tb->rx_ifindex, 0, true);

	err = err ?: tb_configure(tb->tx_ns, tb->tx_ifindex, 1, true);
	if (err)
		p_err("--testbed: cannot set the links up: %s", strerror(-err));
	return err;
}

void dynpf_testbed_destroy(struct dynpf_testbed *tb)
{
	if (tb->rx_ns >= 0)
		close(tb->rx_ns);
	if (tb->tx_ns >= 0)
		close(tb->tx_ns);
	tb->rx_ns = tb->tx_ns = -1;
	if (tb->ns_rx[0])
		netns_remove(tb->ns_rx);
	if (tb->ns_tx[0])
		netns_remove(tb->ns_tx);
	tb->ns_rx[0] = tb->ns_tx[0] = 0;
}

void dynpf_testbed_destroy_signal_safe(const struct dynpf_testbed *tb)
{
	if (tb->ns_rx[0])
		netns_remove(tb->ns_rx);
	if (tb->ns_tx[0])
		netns_remove(tb->ns_tx);
}

/* ---- signals while a bed stands ------------------------------------------ */

static const int tb_signals[4] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
static struct sigaction tb_old_sa[4];
static volatile sig_atomic_t tb_sig;
static const struct dynpf_testbed *volatile tb_guarded;

static void tb_on_signal(int sig)
{
	if (tb_sig) {
		if (tb_guarded)
			dynpf_testbed_destroy_signal_safe(tb_guarded);
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	tb_sig = sig;
}

void dynpf_tb_signals_catch(void)
{
	struct sigaction sa = { .sa_handler = tb_on_signal }; /* no SA_RESTART: EINTR */

	tb_sig = 0;
	tb_guarded = NULL;
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < 4; i++)
		sigaction(tb_signals[i], &sa, &tb_old_sa[i]);
}

void dynpf_tb_signals_guard(const struct dynpf_testbed *tb)
{
	tb_guarded = tb;
}

void dynpf_tb_signals_restore(void)
{
	tb_guarded = NULL;
	for (int i = 0; i < 4; i++)
		sigaction(tb_signals[i], &tb_old_sa[i], NULL);
}

int dynpf_tb_signalled(void)
{
	return tb_sig;
}
