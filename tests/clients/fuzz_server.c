// SPDX-License-Identifier: MIT
/*
 * Fuzzing the stand-in kernel's server from its sockets: the control protocol (requests of
 * every op, bad magic, bad version, short and long packets, requests on a connection that has
 * not opened a socket) and the netlink path (any bytes as a netlink buffer on the data
 * descriptor, reads, closes in any order, several connections), all through real sockets to a
 * server running in a thread, as an untrusted client would.
 *
 * After each input every connection is closed and the server must come back to no clients and
 * still answer a valid request: a leak of a client, a wedged loop or a crash (under ASan, any
 * bad access) stops the run.
 *
 * Two builds of this file: the libFuzzer target fuzz_server (clang, scripts/fuzz-netlink,
 * KFSIM_LIBFUZZER), and ctest clients/fuzz_server, which runs seeded random inputs through the
 * same function in the release and the ASan builds (fewer under sanitizers).
 *
 * Input: a sequence of steps; each step's first byte picks what to do, the next bytes are its
 * arguments (see run_step()).  SHUTDOWN is never sent: it is allowed to the server's own user,
 * and stopping is not a bug.
 */
#define _GNU_SOURCE 1
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <kfsim/err.h>
#include <kfsim/net_namespace.h>
#include <kfsim/netlink.h>
#include <kfsim/nl_client.h>
#include <kfsim/nl_server.h>
#include <kfsim/plca.h>
#include <kfsim/printk.h>
#include <kfsim/nl_remote.h>

#define FZ_CONNS 4
#define FZ_REPLY_WAIT_MS 200

struct fz_conn {
	int ctl;	/* -1: none */
	int data;	/* -1: none */
};

static struct {
	struct kfsim_net *net;
	struct kfsim_nl_server *server;
	pthread_t thread;
	volatile sig_atomic_t stop;
	char path[64];
	struct sockaddr_un sun;
	socklen_t sun_len;
} fz;

static void *serve(void *arg)
{
	(void)arg;
	kfsim_nl_server_run(fz.server, &fz.stop);
	return NULL;
}

static void fz_setup(void)
{
	char err[256];
	size_t n;

	if (fz.server)
		return;
	kfsim_console_loglevel_set(1);	/* rejected inputs warn: keep the console quiet */
	signal(SIGPIPE, SIG_IGN);
	snprintf(fz.path, sizeof(fz.path), "@kfsim-fuzz-server-%d", (int)getpid());
	fz.net = kfsim_standin_net_create(NULL, err, sizeof(err));
	if (IS_ERR(fz.net))
		abort();
	fz.server = kfsim_nl_server_create(kfsim_net_nl(fz.net), fz.path);
	if (IS_ERR(fz.server) || pthread_create(&fz.thread, NULL, serve, NULL))
		abort();
	n = strlen(fz.path);
	fz.sun.sun_family = AF_UNIX;
	memcpy(fz.sun.sun_path + 1, fz.path + 1, n - 1);
	fz.sun_len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n);
}

/* The input as a stream of bytes; reading past the end gives zeros. */
struct fz_in {
	const uint8_t *data;
	size_t size, pos;
};

static uint8_t in_u8(struct fz_in *in)
{
	return in->pos < in->size ? in->data[in->pos++] : 0;
}

static uint32_t in_u32(struct fz_in *in)
{
	uint32_t v = 0;

	for (int i = 0; i < 4; i++)
		v |= (uint32_t)in_u8(in) << (8 * i);
	return v;
}

static void conn_close(struct fz_conn *c)
{
	if (c->data >= 0)
		close(c->data);
	if (c->ctl >= 0)
		close(c->ctl);
	c->data = c->ctl = -1;
}

/* Read the reply to a control request, keeping a passed descriptor as the data one. */
static void read_reply(struct fz_conn *c)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} control;
	struct kfsim_nl_wire_rep rep;
	struct iovec iov = { .iov_base = &rep, .iov_len = sizeof(rep) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buf,
			      .msg_controllen = sizeof(control.buf) };
	struct pollfd pfd = { .fd = c->ctl, .events = POLLIN };
	struct cmsghdr *cmsg;
	int fd;

	if (poll(&pfd, 1, FZ_REPLY_WAIT_MS) <= 0)
		return;
	if (recvmsg(c->ctl, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC) <= 0) {
		conn_close(c);	/* hung up on us */
		return;
	}
	cmsg = CMSG_FIRSTHDR(&msg);
	if (cmsg && cmsg->cmsg_type == SCM_RIGHTS) {
		memcpy(&fd, CMSG_DATA(cmsg), sizeof(fd));
		if (c->data < 0)
			c->data = fd;
		else
			close(fd);
	}
}

static void send_control(struct fz_conn *c, struct fz_in *in)
{
	uint8_t flags = in_u8(in), op = in_u8(in) % 8;
	struct kfsim_nl_wire_req req = {
		.magic = (flags & 1) ? in_u32(in) : KFSIM_NL_WIRE_MAGIC,
		.version = (flags & 2) ? in_u32(in) : KFSIM_NL_WIRE_VERSION,
		.op = op == KFSIM_NL_WIRE_SHUTDOWN ? 0x7f : op,
		.name = in_u32(in),
		.val = (flags & 8) ? NETLINK_GENERIC : in_u32(in),
	};
	size_t len = sizeof(req);

	if (flags & 4)
		len = flags % sizeof(req);	/* a short request */
	if (c->ctl < 0)
		return;
	if (send(c->ctl, &req, len, MSG_DONTWAIT | MSG_NOSIGNAL) < 0)
		return;
	read_reply(c);
}

static void send_data(struct fz_conn *c, struct fz_in *in)
{
	uint8_t buf[2048];
	size_t len = (in_u8(in) | (size_t)in_u8(in) << 8) % sizeof(buf);

	if (len > in->size - in->pos)
		len = in->size - in->pos;
	memcpy(buf, in->data + in->pos, len);
	in->pos += len;
	if (c->data >= 0)
		send(c->data, buf, len, MSG_DONTWAIT | MSG_NOSIGNAL);
}

static void drain(struct fz_conn *c)
{
	uint8_t buf[1 << 16];
	struct pollfd pfd = { .fd = c->data, .events = POLLIN };

	if (c->data < 0)
		return;
	poll(&pfd, 1, 20);
	while (recv(c->data, buf, sizeof(buf), MSG_DONTWAIT) > 0)
		;
}

static void run_step(struct fz_conn *conns, struct fz_in *in)
{
	uint8_t what = in_u8(in);
	struct fz_conn *c = &conns[(what >> 4) % FZ_CONNS];

	switch (what % 6) {
	case 0:	/* a new connection */
		if (c->ctl >= 0)
			break;
		c->ctl = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
		if (c->ctl >= 0 && connect(c->ctl, (struct sockaddr *)&fz.sun, fz.sun_len))
			conn_close(c);
		break;
	case 1:
		send_control(c, in);
		break;
	case 2:
		send_data(c, in);
		break;
	case 3:
		drain(c);
		break;
	case 4:
		if (c->data >= 0)
			close(c->data);
		c->data = -1;
		break;
	default:
		if (c->ctl >= 0)
			close(c->ctl);
		c->ctl = -1;
		break;
	}
}

/* The server lets go of every client and still answers a valid request. */
static void check_server_whole(void)
{
	static struct kfsim_nl_family_info info;	/* large: not on the stack */
	struct kfsim_nl_error nlerr;
	struct kfsim_nl_client *cl;
	int family = -1;

	for (int i = 0; i < 400 && kfsim_nl_server_clients(fz.server); i++)
		usleep(5000);
	if (kfsim_nl_server_clients(fz.server)) {
		fprintf(stderr, "fuzz_server: %u sockets still open after every client left\n",
			kfsim_nl_server_clients(fz.server));
		abort();
	}
	cl = kfsim_nl_client_open_server(fz.path);
	if (!IS_ERR(cl)) {
		family = kfsim_nl_resolve(cl, "ethtool", &info, &nlerr) ? -1 : (int)info.id;
		kfsim_nl_client_close(cl);
	}
	if (family <= 0) {
		fprintf(stderr, "fuzz_server: the server no longer answers (%d)\n", family);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
#ifdef KFSIM_LIBFUZZER
	static unsigned long runs;
#endif
	struct fz_conn conns[FZ_CONNS];
	struct fz_in in = { .data = data, .size = size };
	int steps = 0;

	fz_setup();
	for (int i = 0; i < FZ_CONNS; i++)
		conns[i].ctl = conns[i].data = -1;
	/* start with one opened socket, so short inputs reach the netlink path */
	conns[0].ctl = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (conns[0].ctl >= 0 && !connect(conns[0].ctl, (struct sockaddr *)&fz.sun, fz.sun_len)) {
		struct kfsim_nl_wire_req open_req = {
			.magic = KFSIM_NL_WIRE_MAGIC, .version = KFSIM_NL_WIRE_VERSION,
			.op = KFSIM_NL_WIRE_OPEN, .val = NETLINK_GENERIC,
		};

		if (send(conns[0].ctl, &open_req, sizeof(open_req), MSG_NOSIGNAL) ==
		    (ssize_t)sizeof(open_req))
			read_reply(&conns[0]);
	}
	while (in.pos < in.size && steps++ < 64)
		run_step(conns, &in);
	for (int i = 0; i < FZ_CONNS; i++)
		conn_close(&conns[i]);
#ifdef KFSIM_LIBFUZZER
	if (++runs % 64)
		return 0;	/* the whole-server check costs a round trip: not every run */
#endif
	check_server_whole();
	return 0;
}

#ifndef KFSIM_LIBFUZZER
#include <setjmp.h>
#include <stdarg.h>
#include <cmocka.h>

#if defined(KFSIM_ASAN) || defined(KFSIM_TSAN)
#define FZ_INPUTS 150
#else
#define FZ_INPUTS 600
#endif

/* Seeded random inputs, biased toward valid requests so they reach past the first check. */
static void test_random_inputs(void **state)
{
	uint64_t seed = 0x6b66736572766572ull;	/* fixed: a failure replays */
	uint8_t buf[512];

	(void)state;
	for (int n = 0; n < FZ_INPUTS; n++) {
		size_t len = 1 + (seed >> 33) % sizeof(buf);

		for (size_t i = 0; i < len; i++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			buf[i] = (uint8_t)(seed >> 56);
			/* every 8th byte a step that sends a well-formed OPEN or netlink header */
			if (i % 8 == 0 && (seed >> 20) % 3 == 0)
				buf[i] = (uint8_t)((buf[i] & 0xf0) | ((seed >> 40) % 2 ? 1 : 2));
		}
		assert_int_equal(LLVMFuzzerTestOneInput(buf, len), 0);
	}
	printf("fuzz_server: %d random inputs through the control and data sockets, server whole "
	       "after each\n", FZ_INPUTS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_inputs),
	};
	int ret = cmocka_run_group_tests(tests, NULL, NULL);

	if (fz.server) {
		fz.stop = 1;
		pthread_join(fz.thread, NULL);
		kfsim_nl_server_destroy(fz.server);
		kfsim_net_destroy(fz.net);
	}
	return ret;
}
#endif
