// SPDX-License-Identifier: MIT
/*
 * A session cache in the kernel's style, on kfsim: sessions live in a table protected by a
 * mutex, lookups take a reference with kref_get_unless_zero() under that mutex, and the last
 * kref_put_mutex() unlinks and frees the session.  The session's configuration is an Arc shared
 * by every session that uses it, built with cleanup.h so that each error path frees what it
 * allocated.  Finally a double put shows refcount_t's protection: a warning, and no second
 * release.
 *
 *	cc session_cache.c $(pkg-config --cflags --libs kfsim) -o session_cache && ./session_cache
 */
#include <stdio.h>
#include <string.h>

#include <kfsim/arc.h>
#include <kfsim/cleanup.h>
#include <kfsim/kref.h>
#include <kfsim/printk.h>

struct session_config {
	char *cipher;		/* owned, freed by config_drop() */
	int timeout_s;
};

struct session {
	struct kref kref;
	int id;
	const struct session_config *config;	/* one Arc reference */
};

#define NR_SLOTS 4
static DEFINE_MUTEX(table_lock);
static struct session *table[NR_SLOTS];

static void config_drop(void *data)
{
	struct session_config *config = data;

	printf("config %s: last reference gone, dropped\n", config->cipher);
	kfree(config->cipher);
}

static const struct session_config *config_new(const char *cipher, int timeout_s)
{
	struct session_config *config = unique_arc_try_new(sizeof(*config), config_drop, GFP_KERNEL);

	if (IS_ERR(config))
		return config;
	config->cipher = kstrdup(cipher, GFP_KERNEL);
	if (!config->cipher) {
		arc_put(config);
		return ERR_PTR(-ENOMEM);
	}
	config->timeout_s = timeout_s;
	return unique_arc_share(config);	/* read-only from now on */
}

/* Called by kref_put_mutex() with table_lock held: unlink, unlock, free. */
static void session_release(struct kref *kref)
{
	struct session *s = container_of(kref, struct session, kref);

	table[s->id] = NULL;
	mutex_unlock(&table_lock);
	printf("session %d: released\n", s->id);
	arc_put(s->config);
	kfree(s);
}

static int session_open(int id, const struct session_config *config)
{
	struct session *s __free(kfree) = kzalloc(sizeof(*s), GFP_KERNEL);

	if (!s)
		return -ENOMEM;
	guard(mutex)(&table_lock);
	if (table[id])
		return -EEXIST;		/* s is freed by __free(kfree), the lock dropped by guard() */
	kref_init(&s->kref);		/* the table's reference */
	s->id = id;
	s->config = arc_clone(config);
	table[id] = no_free_ptr(s);
	return 0;
}

static struct session *session_get(int id)
{
	guard(mutex)(&table_lock);
	if (table[id] && kref_get_unless_zero(&table[id]->kref))
		return table[id];
	return NULL;
}

static void session_put(struct session *s)
{
	kref_put_mutex(&s->kref, session_release, &table_lock);
}

static int token_releases;

static void token_release(struct kref *kref)
{
	(void)kref;
	token_releases++;
}

int main(void)
{
	const struct session_config *config = config_new("aes-256-gcm", 30);
	struct session *s;
	char log[1024];

	if (IS_ERR(config))
		return 1;
	if (session_open(1, config) || session_open(2, config))
		return 1;
	printf("session_open(1) again: %d (-EEXIST)\n", session_open(1, config));
	printf("config shared by %u holders\n", arc_count(config));
	arc_put(config);			/* the sessions keep it alive */

	s = session_get(1);
	printf("session 1: cipher %s, refcount %u\n", s->config->cipher, kref_read(&s->kref));
	session_put(s);				/* the lookup's reference */
	session_put(table[1]);			/* the table's reference: released */
	printf("session_get(1) after release: %s\n", session_get(1) ? "found" : "NULL");

	session_put(table[2]);			/* released, and the config with it */

	/* A double put on an object whose memory is still there (a static one, say). */
	static struct kref token = KREF_INIT(1);
	int first = kref_put(&token, token_release);
	int second = kref_put(&token, token_release);

	printf("kref_put() twice returns %d then %d: released %d time(s), count now %#x "
	       "(saturated)\n", first, second, token_releases, kref_read(&token));
	kfsim_dmesg_format(0, log, sizeof(log));
	printf("kernel log:\n%s", log);
	return 0;
}
