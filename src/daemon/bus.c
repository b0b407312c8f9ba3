/* SPDX-License-Identifier: GPL-2.0-or-later */
/* wbgovd on D-Bus (bus.h is the API): the connection, kept without ever
 * making the governor wait, the device objects and their properties, and
 * the Sync method's children. It reads the governor and the kernel's
 * counters; it writes no knob and no file. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <systemd/sd-bus.h>
#include <time.h>
#include <unistd.h>

#include "daemon/bus.h"
#include "daemon/status.h"
#include "knobs/room.h"
#include "sys/fsutil.h"
#include "sys/log.h"
#include "sys/syncmounts.h"

#define ERR_BUSY "io.github.wbgov.Governor1.Error.Busy"
#define ERR_SYNC "io.github.wbgov.Governor1.Error.SyncFailed"
#define ERR_GONE "io.github.wbgov.Governor1.Error.NoSuchDevice"
#define ERR_AUTH "io.github.wbgov.Governor1.Error.NotAuthorized"
#define POLKIT_NAME "org.freedesktop.PolicyKit1"
#define POLKIT_PATH "/org/freedesktop/PolicyKit1/Authority"
#define POLKIT_IFACE "org.freedesktop.PolicyKit1.Authority"
/* the one option of Sync: udisks' name, so a client sets it as for udisks */
#define OPT_NO_INTERACTION "auth.no_user_interaction"

/* sd-bus refuses a string that is not valid UTF-8, and USB firmware
 * sends Latin-1 models: the object must still be there. */
void bus_clean_utf8(char *buf, size_t len, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t o = 0;

	if (!len)
		return;
	while (*s) {
		int n = text_utf8_len((const char *)s);
		if (!n || *s < 0x20 || *s == 0x7f) {
			if (o + 3 >= len)
				break;
			memcpy(buf + o, "\xef\xbf\xbd", 3);
			o += 3;
			s++;
			continue;
		}
		if (o + (size_t)n >= len)
			break;
		memcpy(buf + o, s, (size_t)n);
		o += (size_t)n;
		s += n;
	}
	buf[o] = 0;
}

/* The bdi is its disk's own ("8:16" of sdb), not a file system's
 * ("btrfs-1", "8:16-fuseblk"). */
static bool is_disk_bdi(const struct knobs_dev *info)
{
	char own[32];

	snprintf(own, sizeof(own), "%u:%u", info->major, info->minor);
	return info->disk[0] && !strcmp(own, info->bdi);
}

/* "sdb" for a disk's own bdi, else the bdi ("8:16-fuseblk", "btrfs-1"). */
static void device_label(const struct knobs_dev *info, char *buf, size_t len)
{
	snprintf(buf, len, "%s", is_disk_bdi(info) ? info->disk : info->bdi);
}

/* udisks' udisks_safe_append_to_object_path: [A-Za-z0-9_] as they are,
 * every other byte as _xx. Not sd_bus_path_encode, which also escapes
 * '_' and a leading digit. */
int bus_block_object(const struct knobs_dev *info, char *buf, size_t len)
{
	static const char prefix[] = "/org/freedesktop/UDisks2/block_devices/";
	size_t o;

	if (!is_disk_bdi(info))
		return snprintf(buf, len, "/") >= (int)len ? -ENAMETOOLONG : 0;
	if (len <= sizeof(prefix))
		return -ENAMETOOLONG;
	o = (size_t)snprintf(buf, len, "%s", prefix);
	for (const unsigned char *c = (const unsigned char *)info->disk; *c; c++) {
		bool plain = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			     (*c >= '0' && *c <= '9') || *c == '_';
		if (o + (plain ? 1 : 3) >= len)
			return -ENAMETOOLONG;
		o += (size_t)snprintf(buf + o, len - o, plain ? "%c" : "_%02x", *c);
	}
	return 0;
}

uint64_t bus_device_number(const struct knobs_dev *info)
{
	return is_disk_bdi(info) ? (uint64_t)makedev(info->major, info->minor) : 0;
}

int bus_device_path(const struct knobs_dev *info, char *buf, size_t len)
{
	char label[KNOBS_NAME_MAX], *p = NULL;
	int r;

	device_label(info, label, sizeof(label));
	r = sd_bus_path_encode(BUS_DEVICE_PREFIX, label, &p);
	if (r < 0)
		return r;
	r = snprintf(buf, len, "%s", p) >= (int)len ? -ENAMETOOLONG : 0;
	free(p);
	return r;
}

/* ------------------------------------------------------------ objects */

static int get_str(sd_bus *bus, const char *path, const char *iface, const char *prop,
		   sd_bus_message *reply, void *userdata, sd_bus_error *err)
{
	(void)bus, (void)path, (void)iface, (void)prop, (void)err;
	return sd_bus_message_append(reply, "s", (const char *)userdata);
}

static int get_strp(sd_bus *bus, const char *path, const char *iface, const char *prop,
		    sd_bus_message *reply, void *userdata, sd_bus_error *err)
{
	(void)bus, (void)path, (void)iface, (void)prop, (void)err;
	return sd_bus_message_append(reply, "s", *(const char *const *)userdata);
}

static int get_path(sd_bus *bus, const char *path, const char *iface, const char *prop,
		    sd_bus_message *reply, void *userdata, sd_bus_error *err)
{
	(void)bus, (void)path, (void)iface, (void)prop, (void)err;
	return sd_bus_message_append(reply, "o", (const char *)userdata);
}

static int get_u64(sd_bus *bus, const char *path, const char *iface, const char *prop,
		   sd_bus_message *reply, void *userdata, sd_bus_error *err)
{
	(void)bus, (void)path, (void)iface, (void)prop, (void)err;
	return sd_bus_message_append(reply, "t", *(const uint64_t *)userdata);
}

static int get_double(sd_bus *bus, const char *path, const char *iface, const char *prop,
		      sd_bus_message *reply, void *userdata, sd_bus_error *err)
{
	(void)bus, (void)path, (void)iface, (void)prop, (void)err;
	return sd_bus_message_append(reply, "d", *(const double *)userdata);
}

static int get_bool(sd_bus *bus, const char *path, const char *iface, const char *prop,
		    sd_bus_message *reply, void *userdata, sd_bus_error *err)
{
	(void)bus, (void)path, (void)iface, (void)prop, (void)err;
	return sd_bus_message_append(reply, "b", (int)*(const bool *)userdata);
}

static int get_source(sd_bus *bus, const char *path, const char *iface, const char *prop,
		      sd_bus_message *reply, void *userdata, sd_bus_error *err)
{
	(void)bus, (void)path, (void)iface, (void)prop, (void)err;
	return sd_bus_message_append(reply, "s", bw_source_key(*(const int *)userdata));
}

static int get_mounts(sd_bus *bus, const char *path, const char *iface, const char *prop,
		      sd_bus_message *reply, void *userdata, sd_bus_error *err)
{
	const struct mount_list *l = userdata;
	int r;

	(void)bus, (void)path, (void)iface, (void)prop, (void)err;
	r = sd_bus_message_open_container(reply, 'a', "s");
	for (const char *m = mount_list_next(l, NULL); r >= 0 && m; m = mount_list_next(l, m))
		r = sd_bus_message_append(reply, "s", m);
	return r < 0 ? r : sd_bus_message_close_container(reply);
}

static int get_devices(sd_bus *bus, const char *path, const char *iface, const char *prop,
		       sd_bus_message *reply, void *userdata, sd_bus_error *err)
{
	const struct bus *b = userdata;
	int r;

	(void)bus, (void)path, (void)iface, (void)prop, (void)err;
	r = sd_bus_message_open_container(reply, 'a', "o");
	for (int i = 0; r >= 0 && i < b->ndev; i++)
		r = sd_bus_message_append(reply, "o", b->dev[i].path);
	return r < 0 ? r : sd_bus_message_close_container(reply);
}

/* What is in force (features.h): (name, state, how, refused_by), in
 * UTF-8 as D-Bus wants it (how may name a path, which is bytes). */
static int get_features(sd_bus *bus, const char *path, const char *iface, const char *prop,
			sd_bus_message *reply, void *userdata, sd_bus_error *err)
{
	const struct bus *b = userdata;
	int r;

	(void)bus, (void)path, (void)iface, (void)prop, (void)err;
	r = sd_bus_message_open_container(reply, 'a', "(ssss)");
	for (int i = 0; r >= 0 && b->features && i < FEATURE_COUNT; i++) {
		const struct feature_report *f = &b->features->f[i];
		char how[FEATURE_HOW_MAX * 3];
		if (f->state == FEATURE_UNSAID)
			continue;
		bus_clean_utf8(how, sizeof(how), f->how);
		r = sd_bus_message_append(reply, "(ssss)", feature_name((enum feature)i),
					  feature_state_name(f->state), how, f->refused_by);
	}
	return r < 0 ? r : sd_bus_message_close_container(reply);
}

static struct bus_job *job_free(struct bus *b)
{
	for (int i = 0; i < BUS_MAX_JOBS; i++)
		if (!b->jobs[i].pid)
			return &b->jobs[i];
	return NULL;
}

/* The device object at `path`, if it is still there (an object may go
 * while its caller waits for polkit). */
static struct bus_dev *dev_by_path(struct bus *b, const char *path)
{
	for (int i = 0; i < b->ndev; i++)
		if (!strcmp(b->dev[i].path, path))
			return &b->dev[i];
	return NULL;
}

/* Sync's work, once the caller may: a child syncs every file system of
 * the device, and `call` is answered when it ends (1). 0: nothing is
 * mounted, nothing to do (the caller answers); -errno with err set.
 * A share's file systems are those of its st_dev, and its child may wait
 * for as long as its server is gone: wbgovd never waits for it (bus_stop
 * leaves it), and takes one Sync of a share at a time, so that a client
 * that asks again and again cannot fill every job with waits on one dead
 * server. A share mounted only in another namespace has nothing here to
 * open: refused, saying so, rather than answered as if synced. */
static int sync_start(struct bus *b, struct bus_dev *d, sd_bus_message *call, uint32_t uid,
		      sd_bus_error *err)
{
	static struct mount_list ml; /* 4 KiB: not on the stack */
	struct bus_job *j = job_free(b);
	const char *sender = sd_bus_message_get_sender(call);
	int fds[2], r;
	pid_t pid;

	if (b->stopping)
		return sd_bus_error_setf(err, ERR_BUSY, "wbgovd is stopping");
	if (!j)
		return sd_bus_error_setf(err, ERR_BUSY, "%d syncs are running; try again when one ends",
					 BUS_MAX_JOBS);
	memset(&ml, 0, sizeof(ml));
	if (d->p.share) {
		struct knobs_dev sd = { .is_share = true, .mounted = true, .minor = d->p.share_minor };
		for (int i = 0; i < BUS_MAX_JOBS; i++)
			if (b->jobs[i].pid && !strcmp(b->jobs[i].path, d->path))
				return sd_bus_error_setf(err, ERR_BUSY, "a Sync of %s (%s) runs already "
							 "(pid %d): its server has not taken everything yet",
							 d->p.name, d->p.model, (int)b->jobs[i].pid);
		r = procfs_dev_mounts(b->root, &sd, &ml);
	} else if (!strcmp(d->p.kind, "share")) {
		return sd_bus_error_setf(err, ERR_SYNC, "%s is a share mounted where wbgovd does not see "
					 "it (another mount namespace): it cannot be synced from here",
					 d->p.name);
	} else {
		r = d->p.disk[0] ? procfs_mounts(b->root, d->p.disk, &ml) : 0;
	}
	if (r <= 0) /* nothing mounted: nothing to sync */
		return 0;
	if (pipe2(fds, O_CLOEXEC) < 0)
		return sd_bus_error_set_errno(err, errno);
	/* syncfs of each file system, as `wbgov sync DEVICE` does; what fails
	 * goes to the pipe */
	r = sync_mounts_start(&ml, fds[1], "", 0, &pid);
	close(fds[1]);
	if (r < 0) {
		close(fds[0]);
		return sd_bus_error_set_errno(err, -r);
	}
	memset(j, 0, sizeof(*j));
	j->pid = pid;
	j->fd = fds[0];
	j->call = sd_bus_message_ref(call);
	snprintf(j->path, sizeof(j->path), "%s", d->path);
	if (d->p.share)
		log_info("share %s (%s): Sync asked on D-Bus by uid %u (%s): syncing %d file system%s "
			 "(pid %d)", d->p.name, d->p.model, (unsigned)uid, sender ? sender : "?", ml.n,
			 ml.n == 1 ? "" : "s", (int)pid);
	else
		log_info("%s: Sync asked on D-Bus by uid %u (%s): syncing %d file system%s (pid %d)",
			 d->p.name, (unsigned)uid, sender ? sender : "?", ml.n, ml.n == 1 ? "" : "s",
			 (int)pid);
	return 1;
}

static void auth_drop(struct bus_auth *a)
{
	a->slot = sd_bus_slot_unref(a->slot);
	a->call = sd_bus_message_unref(a->call);
	a->polkit = false;
}

/* Answer a waiting call with `err` (already set) and let it go. */
static void auth_refuse(struct bus_auth *a, sd_bus_error *err)
{
	char *name = NULL;

	sd_bus_path_decode(a->path, BUS_DEVICE_PREFIX, &name);
	log_debug("Sync of %s by uid %u refused: %s", name ? name : a->path, (unsigned)a->uid,
		  err->message);
	free(name);
	sd_bus_reply_method_error(a->call, err);
	sd_bus_error_free(err);
	auth_drop(a);
}

/* The caller may: the sync starts, or the call is answered now. */
static void auth_granted(struct bus_auth *a)
{
	struct bus *b = a->owner;
	struct bus_dev *d = dev_by_path(b, a->path);
	sd_bus_error err = SD_BUS_ERROR_NULL;
	int r;

	if (!d)
		r = sd_bus_error_setf(&err, ERR_GONE, "the device is gone");
	else
		r = sync_start(b, d, a->call, a->uid, &err);
	if (r < 0) {
		sd_bus_reply_method_error(a->call, &err);
		sd_bus_error_free(&err);
	} else if (r == 0) {
		sd_bus_reply_method_return(a->call, "");
	}
	auth_drop(a);
}

/* "Sync of sdb refused: " and the reason, as NotAuthorized. */
static void auth_deny(struct bus_auth *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void auth_deny(struct bus_auth *a, const char *fmt, ...)
{
	sd_bus_error err = SD_BUS_ERROR_NULL;
	char why[512], msg[768], clean[768], *name = NULL;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	sd_bus_path_decode(a->path, BUS_DEVICE_PREFIX, &name);
	snprintf(msg, sizeof(msg), "Sync of %.100s refused: %s", name ? name : a->path, why);
	free(name);
	bus_clean_utf8(clean, sizeof(clean), msg); /* a peer's error text is any bytes */
	sd_bus_error_set(&err, ERR_AUTH, clean);
	auth_refuse(a, &err);
}

static uint64_t mono_usec(void);

/* How long polkit is given: a person may have to type a password. */
static uint64_t auth_usec(const struct bus_auth *a)
{
	return a->interactive ? BUS_AUTH_INTERACTIVE_USEC : BUS_AUTH_USEC;
}

/* polkit's answer, (bba{ss}): is_authorized, is_challenge, details. */
static int polkit_reply(sd_bus_message *m, void *userdata, sd_bus_error *ret_err)
{
	struct bus_auth *a = userdata;
	const sd_bus_error *e = sd_bus_message_get_error(m);
	int authorized = 0, challenge = 0, dismissed = 0, r;

	(void)ret_err;
	a->slot = sd_bus_slot_unref(a->slot); /* sd-bus holds it until we return */
	if (e) {
		if (sd_bus_error_has_names(e, SD_BUS_ERROR_SERVICE_UNKNOWN, SD_BUS_ERROR_NAME_HAS_NO_OWNER,
					   "org.freedesktop.DBus.Error.Spawn.ServiceNotFound")) {
			auth_deny(a, "polkit is not on the bus (%s), and without it only root may Sync",
				  e->message ? e->message : e->name);
			return 1;
		}
		if (sd_bus_error_has_name(e, SD_BUS_ERROR_NO_REPLY) &&
		    mono_usec() - a->asked_usec < auth_usec(a) / 2) {
			/* the bus's NoReply: polkit left (or crashed) meanwhile */
			auth_deny(a, "polkit went away without an answer (%s)",
				  e->message ? e->message : e->name);
			return 1;
		}
		if (sd_bus_error_has_name(e, SD_BUS_ERROR_NO_REPLY)) {
			/* sd-bus's timeout: its dialog, if any, is not wanted any more */
			sd_bus_call_method_async(a->owner->bus, NULL, POLKIT_NAME, POLKIT_PATH,
						 POLKIT_IFACE, "CancelCheckAuthorization", NULL, NULL,
						 "s", a->cancel_id);
			auth_deny(a, "polkit did not answer within %llu s",
				  (unsigned long long)(auth_usec(a) / 1000000));
			return 1;
		}
		auth_deny(a, "polkit failed: %s: %s", e->name, e->message ? e->message : "");
		return 1;
	}
	r = sd_bus_message_enter_container(m, 'r', "bba{ss}");
	if (r >= 0)
		r = sd_bus_message_read(m, "bb", &authorized, &challenge);
	if (r >= 0)
		r = sd_bus_message_enter_container(m, 'a', "{ss}");
	while (r >= 0 && (r = sd_bus_message_enter_container(m, 'e', "ss")) > 0) {
		const char *k, *v;
		r = sd_bus_message_read(m, "ss", &k, &v);
		if (r >= 0 && !strcmp(k, "polkit.dismissed") && !strcmp(v, "true"))
			dismissed = 1;
		if (r >= 0)
			r = sd_bus_message_exit_container(m);
	}
	if (r < 0)
		auth_deny(a, "polkit's answer cannot be read: %s", strerror(-r));
	else if (authorized)
		auth_granted(a);
	else if (dismissed)
		auth_deny(a, "the authentication for %s was dismissed", BUS_POLKIT_ACTION);
	else if (challenge)
		auth_deny(a, "polkit wants authentication for %s, and the call allowed no user "
			  "interaction (send it with ALLOW_INTERACTIVE_AUTHORIZATION, without "
			  OPT_NO_INTERACTION ")", BUS_POLKIT_ACTION);
	else
		auth_deny(a, "polkit says uid %u is not authorized for %s (by default only a user "
			  "of an active local session is)", (unsigned)a->uid, BUS_POLKIT_ACTION);
	return 1;
}

/* CheckAuthorization for the caller (its unique name: polkit asks the bus
 * who that is), bounded by BUS_AUTH_USEC. */
static int ask_polkit(struct bus_auth *a)
{
	struct bus *b = a->owner;
	struct bus_dev *d = dev_by_path(b, a->path);
	sd_bus_message *q = NULL;
	char device[sizeof(d->p.name) + sizeof(d->p.model) + 4];
	int r;

	if (d && d->p.model[0])
		snprintf(device, sizeof(device), "%s (%s)", d->p.name, d->p.model);
	else
		snprintf(device, sizeof(device), "%s", d ? d->p.name : a->path);
	snprintf(a->cancel_id, sizeof(a->cancel_id), "wbgovd-sync-%u", ++b->auth_seq);
	r = sd_bus_message_new_method_call(b->bus, &q, POLKIT_NAME, POLKIT_PATH, POLKIT_IFACE,
					   "CheckAuthorization");
	if (r >= 0)
		r = sd_bus_message_append(q, "(sa{sv})s", "system-bus-name", 1, "name", "s",
					  sd_bus_message_get_sender(a->call), BUS_POLKIT_ACTION);
	/* $(device) in the action's message. polkit answers only uid 0 (or
	 * the action's owner) about another user's process, and takes details
	 * only from them: wbgovd runs as root */
	if (r >= 0)
		r = sd_bus_message_append(q, "a{ss}us", 1, "device", device,
					  (uint32_t)(a->interactive ? 1 : 0), a->cancel_id);
	if (r >= 0)
		r = sd_bus_call_async(b->bus, &a->slot, q, polkit_reply, a, auth_usec(a));
	a->asked_usec = mono_usec();
	a->polkit = r >= 0;
	sd_bus_message_unref(q);
	return r;
}

/* The bus's answer to GetConnectionCredentials: the caller's uid (the
 * effective one, as the kernel gave it to the bus at connect). */
static int creds_reply(sd_bus_message *m, void *userdata, sd_bus_error *ret_err)
{
	struct bus_auth *a = userdata;
	const sd_bus_error *e = sd_bus_message_get_error(m);
	bool found = false;
	int r, n = 0, n_uid = 0;

	(void)ret_err;
	a->slot = sd_bus_slot_unref(a->slot);
	if (e) {
		auth_deny(a, "the bus did not tell who calls (%s: %s)", e->name,
			  e->message ? e->message : "");
		return 1;
	}
	r = sd_bus_message_enter_container(m, 'a', "{sv}");
	while (r >= 0 && (r = sd_bus_message_enter_container(m, 'e', "sv")) > 0) {
		const char *k;
		r = sd_bus_message_read(m, "s", &k);
		if (r >= 0 && !strcmp(k, "UnixUserID")) {
			r = sd_bus_message_read(m, "v", "u", &a->uid);
			found = r >= 0;
		} else if (r >= 0) {
			r = sd_bus_message_skip(m, "v");
		}
		if (r >= 0)
			r = sd_bus_message_exit_container(m);
	}
	if (r < 0 || !found) {
		auth_deny(a, "the bus did not tell the caller's uid");
		return 1;
	}
	if (a->uid == 0) { /* root needs nobody's leave */
		auth_granted(a);
		return 1;
	}
	for (int i = 0; i < BUS_AUTH_SLOTS; i++) {
		const struct bus_auth *o = &a->owner->auths[i];
		n += o->call && o->polkit;
		n_uid += o->call && o->polkit && o->uid == a->uid;
	}
	if (n >= BUS_MAX_AUTHS || n_uid >= BUS_MAX_AUTHS_PER_UID) {
		sd_bus_error busy = SD_BUS_ERROR_NULL;
		if (n_uid >= BUS_MAX_AUTHS_PER_UID)
			sd_bus_error_setf(&busy, ERR_BUSY, "%d Sync calls of uid %u wait for polkit's "
					  "answer; try again later", BUS_MAX_AUTHS_PER_UID, a->uid);
		else
			sd_bus_error_setf(&busy, ERR_BUSY, "%d Sync calls wait for polkit's answer; "
					  "try again later", BUS_MAX_AUTHS);
		auth_refuse(a, &busy);
		return 1;
	}
	r = ask_polkit(a);
	if (r < 0)
		auth_deny(a, "cannot ask polkit: %s", strerror(-r));
	return 1;
}

/* Sync's options, a{sv}: OPT_NO_INTERACTION (b), nothing else. An
 * unknown key is refused, not ignored as udisks does: a caller that asks
 * for something this wbgovd does not do learns it now. */
static int read_options(sd_bus_message *m, bool *ret_no_interaction, sd_bus_error *err)
{
	bool no_interaction = false, seen = false;
	int r;

	r = sd_bus_message_enter_container(m, 'a', "{sv}");
	while (r >= 0 && (r = sd_bus_message_enter_container(m, 'e', "sv")) > 0) {
		const char *key, *contents = NULL;
		char type;
		int v = 0;
		r = sd_bus_message_read(m, "s", &key);
		if (r >= 0)
			r = sd_bus_message_peek_type(m, &type, &contents);
		if (r < 0)
			break;
		if (strcmp(key, OPT_NO_INTERACTION))
			return sd_bus_error_setf(err, SD_BUS_ERROR_INVALID_ARGS,
						 "Sync: unknown option '%.64s' (the one option is "
						 OPT_NO_INTERACTION ", b)", key);
		if (!contents || strcmp(contents, "b"))
			return sd_bus_error_setf(err, SD_BUS_ERROR_INVALID_ARGS,
						 "Sync: option '" OPT_NO_INTERACTION "' is a boolean "
						 "(b), not '%.16s'", contents ? contents : "?");
		if (seen)
			return sd_bus_error_setf(err, SD_BUS_ERROR_INVALID_ARGS, "Sync: option '"
						 OPT_NO_INTERACTION "' given twice");
		r = sd_bus_message_read(m, "v", "b", &v);
		if (r >= 0)
			r = sd_bus_message_exit_container(m);
		no_interaction = v;
		seen = true;
	}
	if (r >= 0)
		r = sd_bus_message_exit_container(m);
	if (r < 0)
		return sd_bus_error_setf(err, SD_BUS_ERROR_INVALID_ARGS, "Sync: options unreadable: %s",
					 strerror(-r));
	*ret_no_interaction = no_interaction;
	return 0;
}

static struct bus_auth *auth_free(struct bus *b)
{
	for (int i = 0; i < BUS_AUTH_SLOTS; i++)
		if (!b->auths[i].call)
			return &b->auths[i];
	return NULL;
}

/* Sync(a{sv} options): who calls is asked of the bus, and for anyone but
 * root polkit is asked, both without waiting; then a child syncs and the
 * call is answered when it ends. The daemon's loop goes on meanwhile. */
static int method_sync(sd_bus_message *m, void *userdata, sd_bus_error *err)
{
	struct bus_dev *d = userdata;
	struct bus *b = d->owner;
	struct bus_auth *a;
	bool no_interaction = false;
	int r;

	r = read_options(m, &no_interaction, err);
	if (r < 0)
		return r;
	if (b->stopping)
		return sd_bus_error_setf(err, ERR_BUSY, "wbgovd is stopping");
	if (!job_free(b))
		return sd_bus_error_setf(err, ERR_BUSY, "%d syncs are running; try again when one ends",
					 BUS_MAX_JOBS);
	if (!(a = auth_free(b)))
		return sd_bus_error_setf(err, ERR_BUSY, "%d Sync calls wait to be told who calls; "
					 "try again later", BUS_AUTH_SLOTS);
	if (!sd_bus_message_get_sender(m))
		return sd_bus_error_setf(err, ERR_AUTH, "Sync of %s refused: the call has no sender",
					 d->p.name);
	memset(a, 0, sizeof(*a));
	a->owner = b;
	snprintf(a->path, sizeof(a->path), "%s", d->path);
	/* polkit may ask the user only when the caller said it waits for that
	 * (the message's flag, as D-Bus has it) and did not say no (udisks'
	 * option) */
	a->interactive = sd_bus_message_get_allow_interactive_authorization(m) > 0 && !no_interaction;
	a->uid = UINT32_MAX;
	r = sd_bus_call_method_async(b->bus, &a->slot, "org.freedesktop.DBus", "/org/freedesktop/DBus",
				     "org.freedesktop.DBus", "GetConnectionCredentials", creds_reply,
				     a, "s", sd_bus_message_get_sender(m));
	if (r < 0) {
		a->slot = NULL;
		return sd_bus_error_set_errno(err, -r);
	}
	a->call = sd_bus_message_ref(m);
	return 1;
}

/* Every call still waiting for its authorization: answered with `name`
 * and `msg` (NULL: not answered, the bus is gone) and let go. */
static void auths_drop(struct bus *b, const char *name, const char *msg)
{
	for (int i = 0; i < BUS_AUTH_SLOTS; i++) {
		struct bus_auth *a = &b->auths[i];
		if (!a->call)
			continue;
		if (name)
			sd_bus_reply_method_errorf(a->call, name, "%s", msg);
		/* an answered call's check may still show a password dialog:
		 * polkit closes it (queued, flushed with the replies) */
		if (name && a->polkit && b->bus)
			sd_bus_call_method_async(b->bus, NULL, POLKIT_NAME, POLKIT_PATH, POLKIT_IFACE,
						 "CancelCheckAuthorization", NULL, NULL, "s", a->cancel_id);
		auth_drop(a);
	}
}

/* The child closed its end: it has exited, or is about to (the wait is
 * no longer than its exit takes). */
static void job_end(struct bus *b, struct bus_job *j)
{
	int r = sync_mounts_reap(j->pid, true);
	char msg[sizeof(j->err) * 3];

	close(j->fd);
	/* its line without the newline, in UTF-8 as sd-bus wants it (a path
	 * is bytes, and the read may have cut a character) */
	if (j->errlen && j->err[j->errlen - 1] == '\n')
		j->errlen--;
	j->err[j->errlen] = 0;
	bus_clean_utf8(msg, sizeof(msg), j->err);
	if (r == 0)
		sd_bus_reply_method_return(j->call, "");
	else if (b->stopping && r == -ECANCELED)
		sd_bus_reply_method_errorf(j->call, ERR_SYNC, "wbgovd stopped; the sync was cancelled");
	else
		sd_bus_reply_method_errorf(j->call, ERR_SYNC, "%s",
					   j->errlen ? msg : "the sync process failed");
	sd_bus_message_unref(j->call);
	j->pid = 0;
}

static const sd_bus_vtable manager_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_PROPERTY("Devices", "ao", get_devices, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
	SD_BUS_PROPERTY("Features", "a(ssss)", get_features, 0, 0),
	SD_BUS_SIGNAL_WITH_NAMES("DeviceAdded", "o", SD_BUS_PARAM(device), 0),
	SD_BUS_SIGNAL_WITH_NAMES("DeviceRemoved", "o", SD_BUS_PARAM(device), 0),
	SD_BUS_VTABLE_END
};

#define P(f) offsetof(struct bus_dev, p.f)
#define CHANGES SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE
static const sd_bus_vtable device_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_PROPERTY("Name", "s", get_str, P(name), SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_PROPERTY("Bdi", "s", get_str, P(bdi), SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_PROPERTY("Disk", "s", get_str, P(disk), SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_PROPERTY("Model", "s", get_str, P(model), SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_PROPERTY("Bus", "s", get_str, P(busname), SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_PROPERTY("Kind", "s", get_strp, P(kind), SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_PROPERTY("DeviceNumber", "t", get_u64, P(devnum), SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_PROPERTY("UDisksBlock", "o", get_path, P(block_object), SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_PROPERTY("Mounts", "as", get_mounts, P(mounts), CHANGES),
	SD_BUS_PROPERTY("BandwidthBytesPerSecond", "t", get_u64, P(bw_bps), CHANGES),
	SD_BUS_PROPERTY("BandwidthSource", "s", get_source, P(source), CHANGES),
	SD_BUS_PROPERTY("CapBytes", "t", get_u64, P(cap_bytes), CHANGES),
	SD_BUS_PROPERTY("PendingKnown", "b", get_bool, P(pending_known), CHANGES),
	SD_BUS_PROPERTY("PendingBytes", "t", get_u64, P(pending_bytes), CHANGES),
	SD_BUS_PROPERTY("DrainSeconds", "d", get_double, P(drain_s), CHANGES),
	SD_BUS_PROPERTY("State", "s", get_strp, P(state), CHANGES),
	SD_BUS_PROPERTY("Why", "s", get_str, P(why), CHANGES),
	SD_BUS_METHOD_WITH_NAMES("Sync", "a{sv}", SD_BUS_PARAM(options), "", , method_sync,
				 SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_VTABLE_END
};
#undef P
#undef CHANGES

static int find_device(sd_bus *bus, const char *path, const char *iface, void *userdata,
		       void **ret_found, sd_bus_error *err)
{
	struct bus *b = userdata;

	(void)bus, (void)iface, (void)err;
	for (int i = 0; i < b->ndev; i++)
		if (!strcmp(b->dev[i].path, path)) {
			*ret_found = &b->dev[i];
			return 1;
		}
	return 0;
}

static int list_devices(sd_bus *bus, const char *prefix, void *userdata, char ***ret_nodes,
			sd_bus_error *err)
{
	struct bus *b = userdata;
	char **v = calloc((size_t)b->ndev + 1, sizeof(*v));

	(void)bus, (void)prefix, (void)err;
	if (!v)
		return -ENOMEM;
	for (int i = 0; i < b->ndev; i++)
		if (!(v[i] = strdup(b->dev[i].path))) {
			for (int k = 0; k < i; k++)
				free(v[k]);
			free(v);
			return -ENOMEM;
		}
	*ret_nodes = v;
	return 0;
}

/* ---------------------------------------------------------- connection */

static uint64_t mono_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000ULL + (uint64_t)ts.tv_nsec / 1000;
}

/* Closed without waiting: sd_bus_flush would wait, without a bound, for
 * a peer that may never read again. */
/* The bus it is on, or tries to be. */
static const char *where(const struct bus *b)
{
	return b->kind == BUS_SYSTEM ? "the system bus" :
	       b->kind == BUS_SESSION ? "the session bus" : b->address;
}

static void lost(struct bus *b, const char *what, int r)
{
	const char *by = feature_refused_by(r, false);

	feature_set(b->features, FEATURE_BUS, by ? FEATURE_REFUSED : FEATURE_OFF, by,
		    "not on %s (%s); tried again every %llu s", where(b), strerror(-r),
		    BUS_RETRY_USEC / 1000000);
	if (!b->failed_logged)
		log_warn("D-Bus: %s: %s; governing goes on, trying again every %llu s", what,
			 strerror(-r), BUS_RETRY_USEC / 1000000);
	b->failed_logged = true;
	/* their callers hear of it from the bus (NoReply) */
	auths_drop(b, NULL, NULL);
	b->bus = sd_bus_close_unref(b->bus);
	b->up = false;
	b->stall_usec = 0;
	b->retry_usec = mono_usec() + BUS_RETRY_USEC;
}

/* The answer to RequestName. Called inside sd_bus_process: it only
 * records, and bus_update acts on it. */
static int name_reply(sd_bus_message *m, void *userdata, sd_bus_error *err)
{
	struct bus *b = userdata;
	uint32_t ret = 0;
	int r;

	(void)err;
	if (sd_bus_message_is_method_error(m, NULL)) {
		r = sd_bus_message_get_errno(m);
		b->name_r = r > 0 ? -r : -EIO;
		return 1;
	}
	r = sd_bus_message_read(m, "u", &ret);
	/* 1: the primary owner, 4: already it; 3 (and 2, queued, which was
	 * not asked for): another process has it */
	b->name_r = r < 0 ? r : ret == 1 || ret == 4 ? 1 : -EEXIST;
	return 1;
}

/* What sd_bus_open_system and sd_bus_open_user would connect to; their
 * own start would send Hello with the default 25 s call timeout. */
static int set_address(struct bus *b, sd_bus *bus)
{
	const char *e;
	char a[PATH_MAX + 32];
	size_t o;

	switch (b->kind) {
	case BUS_SYSTEM:
		e = bus_env_address("DBUS_SYSTEM_BUS_ADDRESS");
		return sd_bus_set_address(bus, e ? e : "unix:path=" BUS_SYSTEM_SOCKET);
	case BUS_SESSION:
		if ((e = bus_env_address("DBUS_SESSION_BUS_ADDRESS")))
			return sd_bus_set_address(bus, e);
		if (!(e = secure_getenv("XDG_RUNTIME_DIR")))
			return -ENOMEDIUM;
		/* $XDG_RUNTIME_DIR/bus, escaped as a D-Bus address value */
		o = (size_t)snprintf(a, sizeof(a), "unix:path=");
		for (; *e && o + 8 < sizeof(a); e++)
			o += (size_t)snprintf(a + o, sizeof(a) - o, strchr("/._-", *e) ||
					      (*e >= '0' && *e <= '9') || (*e >= 'a' && *e <= 'z') ||
					      (*e >= 'A' && *e <= 'Z') ? "%c" : "%%%02x",
					      (unsigned char)*e);
		if (*e || o + 5 > sizeof(a))
			return -ENAMETOOLONG;
		snprintf(a + o, sizeof(a) - o, "/bus");
		return sd_bus_set_address(bus, a);
	case BUS_ADDRESS: return sd_bus_set_address(bus, b->address);
	default: return -EINVAL;
	}
}

/* Starts the connection: sd_bus_start only connects the socket (a stream
 * socket that does not block) and queues the authentication and Hello;
 * the name is asked for at once, and its answer comes through
 * bus_dispatch. Nothing here waits for the bus. */
static int connect_bus(struct bus *b)
{
	sd_bus *bus = NULL;
	int r;
	const char *what = "connecting";

	if (b->kind == BUS_OFF)
		return 0;
	log_debug("D-Bus: connecting");
	r = sd_bus_new(&bus);
	if (r >= 0)
		r = set_address(b, bus);
	if (r >= 0)
		r = sd_bus_set_bus_client(bus, 1);
	if (r >= 0)
		r = sd_bus_set_method_call_timeout(bus, BUS_TIMEOUT_USEC);
	if (r >= 0)
		r = sd_bus_start(bus);
	if (r >= 0) {
		what = "publishing the objects";
		r = sd_bus_add_object_vtable(bus, NULL, BUS_PATH, BUS_MANAGER_IFACE, manager_vtable, b);
	}
	if (r >= 0)
		r = sd_bus_add_fallback_vtable(bus, NULL, BUS_DEVICE_PREFIX, BUS_DEVICE_IFACE,
					       device_vtable, find_device, b);
	if (r >= 0)
		r = sd_bus_add_node_enumerator(bus, NULL, BUS_DEVICE_PREFIX, list_devices, b);
	if (r >= 0)
		r = sd_bus_add_object_manager(bus, NULL, BUS_PATH);
	if (r >= 0) {
		what = "taking the name " BUS_NAME;
		r = sd_bus_request_name_async(bus, NULL, BUS_NAME, 0, name_reply, b);
	}
	b->bus = bus;
	b->up = false;
	b->name_r = 0;
	b->stall_usec = 0;
	b->deadline_usec = mono_usec() + BUS_TIMEOUT_USEC;
	if (r < 0) {
		lost(b, what, r);
		return r;
	}
	return 0;
}

/* The name is ours: from here on the objects are published. */
static void bus_up(struct bus *b)
{
	b->up = true;
	log_info("D-Bus: %s on %s", BUS_NAME, where(b));
	feature_set(b->features, FEATURE_BUS, FEATURE_ON, NULL, "%s on %s", BUS_NAME, where(b));
	b->failed_logged = false;
}

/* A connection that is not up by its deadline, or whose write queue has
 * stopped moving, is dropped: true when it was. */
static bool bus_stuck(struct bus *b, uint64_t now_usec)
{
	uint64_t queued = 0;

	if (!b->up) {
		if (b->name_r < 0) {
			lost(b, "taking the name " BUS_NAME, b->name_r);
			return true;
		}
		if (b->name_r > 0) {
			bus_up(b);
			return false;
		}
		if (now_usec >= b->deadline_usec) {
			lost(b, "connecting (no answer from the bus)", -ETIMEDOUT);
			return true;
		}
		return false;
	}
	if (sd_bus_get_n_queued_write(b->bus, &queued) < 0 || !queued) {
		b->stall_usec = 0;
		return false;
	}
	if (!b->stall_usec) {
		b->stall_usec = now_usec ? now_usec : 1;
		log_debug("D-Bus: the write queue stopped moving (%llu messages): dropped in %llu s "
			  "unless it moves", (unsigned long long)queued, BUS_TIMEOUT_USEC / 1000000);
	}
	if (queued > BUS_QUEUE_MAX || now_usec - b->stall_usec >= BUS_TIMEOUT_USEC) {
		lost(b, "the bus takes no more messages (stopped?)", -ETIMEDOUT);
		return true;
	}
	return false;
}

void bus_start(struct bus *b, enum bus_kind kind, const char *address, const char *root,
	       struct knobs_real *real, struct features *features)
{
	memset(b, 0, sizeof(*b));
	b->kind = kind;
	b->address = address;
	b->root = root;
	b->real = real;
	b->features = features;
	if (kind == BUS_OFF)
		return;
	if (connect_bus(b) == 0)
		feature_set(features, FEATURE_BUS, FEATURE_ON, NULL, "connected to %s, taking the name %s",
			    where(b), BUS_NAME);
}

void bus_mounts_changed(struct bus *b)
{
	b->mounts_stale = true;
}

/* ------------------------------------------------------------- updates */

static const struct gov_dev *gov_dev_of(const struct governor *g, struct bus_dev *d)
{
	if (d->gi < g->ndev && !strcmp(g->dev[d->gi].info.bdi, d->p.bdi))
		return &g->dev[d->gi];
	for (int i = 0; i < g->ndev; i++)
		if (!strcmp(g->dev[i].info.bdi, d->p.bdi)) {
			d->gi = i;
			return &g->dev[i];
		}
	return NULL;
}

static void static_props(struct bus_props *p, const struct knobs_dev *info)
{
	device_label(info, p->name, sizeof(p->name));
	bus_clean_utf8(p->name, sizeof(p->name), p->name);
	bus_clean_utf8(p->bdi, sizeof(p->bdi), info->bdi);
	bus_clean_utf8(p->disk, sizeof(p->disk), info->disk);
	bus_clean_utf8(p->model, sizeof(p->model), info->model);
	bus_clean_utf8(p->busname, sizeof(p->busname), info->bus);
	p->kind = info->is_share ? "share" : "disk";
	p->share = info->is_share && info->mounted;
	p->share_minor = info->minor;
	p->devnum = bus_device_number(info);
	if (bus_block_object(info, p->block_object, sizeof(p->block_object)) < 0)
		snprintf(p->block_object, sizeof(p->block_object), "/");
}

/* The device's mount points, from the mount table read once per
 * bus_update (b->mt, let go at its end). */
static void read_mounts(struct bus *b, struct bus_props *p)
{
	static struct mount_list raw;
	int i = 0;
	struct knobs_dev d = { .is_share = p->share, .mounted = p->share, .minor = p->share_minor };

	memset(&raw, 0, sizeof(raw));
	memset(&p->mounts, 0, sizeof(p->mounts));
	if (!p->disk[0] && !p->share)
		return;
	snprintf(d.disk, sizeof(d.disk), "%s", p->disk);
	if (!b->mt && procfs_mount_table_read(b->root, &b->mt) != 0)
		b->mt = NULL;
	if (!b->mt || procfs_dev_mounts_of(b->mt, &d, &raw) <= 0)
		return;
	for (const char *m = mount_list_next(&raw, NULL); m; m = mount_list_next(&raw, m), i++) {
		char c[PATH_MAX];
		bus_clean_utf8(c, sizeof(c), m);
		mount_list_add(&p->mounts, c, raw.id[i], raw.dev[i]);
	}
}

/* The governor's view of the device, and its data still to write when it
 * is due, into d->n. */
static void read_now(struct bus *b, struct bus_dev *d, const struct gov_dev *gd,
		     uint64_t sys_pending, uint64_t now_usec)
{
	struct bus_props *n = &d->n;
	uint64_t since = now_usec - d->read_usec;

	n->bw_bps = gd->meter.est_bps;
	n->source = gd->meter.source;
	n->cap_bytes = gd->decided && gd->dec.govern && gd->dec.strict && !gd->above_global ?
			       gd->dec.max_bytes : 0;
	n->state = gov_state_key(gov_dev_state(gd));
	if (gd->err) {
		snprintf(n->why, sizeof(n->why), "%s of %s failed: %s",
			 gd->err_op == GOV_ERR_READ ? "reading" : gd->err_op == GOV_ERR_RECORD ?
			 "recording the original values" : "writing", bdi_attr_names[gd->err_attr],
			 strerror(-gd->err));
	} else if (!gd->decided) {
		n->why[0] = 0;
	} else {
		snprintf(n->why, sizeof(n->why), "%s",
			 gov_why_text[gd->above_global ? WHY_ABOVE_GLOBAL : gd->dec.why]);
	}
	/* debugfs costs about 48 us a read: a device with data is read at
	 * the pace of the signals, the others each second while the system
	 * holds data, none on an idle system */
	if ((d->counters && (!d->read_usec || (n->pending_bytes && since >= BUS_PENDING_USEC - 10000) ||
			     (sys_pending && since >= BUS_IDLE_READ_USEC))) ||
	    (!d->counters && sys_pending && since >= BUS_RECHECK_USEC)) {
		struct knobs_bdi_counters c;
		int r = knobs_real_ops.bdi_counters(b->real, gd->info.bdi, &c);
		d->read_usec = now_usec ? now_usec : 1;
		n->pending_known = r == 0;
		n->pending_bytes = r == 0 ? c.dirty + c.writeback : 0;
		/* no debugfs, or not this bdi: looked for again each minute
		 * while the system holds data (debugfs mounted later) */
		d->counters = r != -ENOTSUP;
	}
	n->drain_s = status_drain_s(n->pending_known, n->pending_bytes, n->bw_bps);
}

/* Material: the bandwidth moved by 5 % or its source changed; data still
 * to write came or went, moved by 1 % of what was last published, or
 * its time to drain by a second. */
static bool bw_moved(const struct bus_props *p, const struct bus_props *n)
{
	uint64_t a = p->bw_bps, c = n->bw_bps, d = a > c ? a - c : c - a;

	return p->source != n->source || (!a != !c) || d * 20 > a;
}

static bool pending_moved(const struct bus_props *p, const struct bus_props *n)
{
	uint64_t a = p->pending_bytes, c = n->pending_bytes, d = a > c ? a - c : c - a;

	if (p->pending_known != n->pending_known || !a != !c || (p->drain_s < 0) != (n->drain_s < 0))
		return true;
	return (a && d * 100 >= a) || fabs(p->drain_s - n->drain_s) >= 1.0;
}

static void publish(struct bus *b, struct bus_dev *d, uint64_t now_usec)
{
	struct bus_props *p = &d->p, *n = &d->n;
	char *names[16];
	int k = 0;

	if (p->mounts.used != n->mounts.used || p->mounts.n != n->mounts.n ||
	    memcmp(p->mounts.buf, n->mounts.buf, n->mounts.used)) {
		p->mounts = n->mounts;
		names[k++] = "Mounts";
	}
	if (bw_moved(p, n)) {
		p->bw_bps = n->bw_bps;
		p->source = n->source;
		names[k++] = "BandwidthBytesPerSecond";
		names[k++] = "BandwidthSource";
	}
	if (p->cap_bytes != n->cap_bytes) {
		p->cap_bytes = n->cap_bytes;
		names[k++] = "CapBytes";
	}
	if (p->state != n->state || strcmp(p->why, n->why)) {
		p->state = n->state;
		memcpy(p->why, n->why, sizeof(p->why));
		names[k++] = "State";
		names[k++] = "Why";
	}
	d->deferred = false;
	if (pending_moved(p, n)) {
		if (d->emitted_usec && now_usec - d->emitted_usec < BUS_PENDING_USEC - 10000) {
			d->deferred = true; /* its turn comes within 250 ms */
		} else {
			p->pending_known = n->pending_known;
			p->pending_bytes = n->pending_bytes;
			p->drain_s = n->drain_s;
			d->emitted_usec = now_usec ? now_usec : 1;
			names[k++] = "PendingKnown";
			names[k++] = "PendingBytes";
			names[k++] = "DrainSeconds";
		}
	}
	if (!k)
		return;
	names[k] = NULL;
	sd_bus_emit_properties_changed_strv(b->bus, d->path, BUS_DEVICE_IFACE, names);
}

static void remove_dev(struct bus *b, int i)
{
	char path[sizeof(b->dev[i].path)];

	snprintf(path, sizeof(path), "%s", b->dev[i].path);
	/* while it is still there: InterfacesRemoved lists its interfaces */
	sd_bus_emit_object_removed(b->bus, path);
	b->dev[i] = b->dev[--b->ndev];
	sd_bus_emit_signal(b->bus, BUS_PATH, BUS_MANAGER_IFACE, "DeviceRemoved", "o", path);
}

/* Objects for the devices the governor has, none for those it has not. */
static bool sync_devices(struct bus *b, const struct governor *g, uint64_t sys_pending,
			 uint64_t now_usec)
{
	bool changed = false;

	for (int i = 0; i < b->ndev;) {
		const struct gov_dev *gd = gov_dev_of(g, &b->dev[i]);
		struct bus_props s;
		if (gd) {
			static_props(&s, &gd->info);
			if (!strcmp(s.name, b->dev[i].p.name) && !strcmp(s.disk, b->dev[i].p.disk) &&
			    !strcmp(s.model, b->dev[i].p.model) && !strcmp(s.busname, b->dev[i].p.busname)) {
				i++;
				continue;
			}
		}
		/* gone, or another device under the same bdi */
		remove_dev(b, i);
		changed = true;
	}
	for (int j = 0; j < g->ndev; j++) {
		const struct gov_dev *gd = &g->dev[j];
		struct bus_dev *d;
		int i;
		for (i = 0; i < b->ndev && strcmp(b->dev[i].p.bdi, gd->info.bdi); i++)
			;
		if (i < b->ndev)
			continue;
		if (!room_for(&b->dev, &b->dev_room, b->ndev + 1, sizeof(*b->dev))) {
			/* governed, not published; tried again at the next change */
			if (!b->nomem_logged)
				log_err("D-Bus: out of memory for the object of %s: not published",
					gd->info.bdi);
			b->nomem_logged = true;
			break;
		}
		d = &b->dev[b->ndev];
		memset(d, 0, sizeof(*d));
		if (bus_device_path(&gd->info, d->path, sizeof(d->path)) < 0)
			continue;
		d->owner = b;
		d->gi = j;
		d->counters = true;
		static_props(&d->n, &gd->info);
		read_mounts(b, &d->n);
		read_now(b, d, gd, sys_pending, now_usec);
		d->p = d->n;
		d->emitted_usec = now_usec ? now_usec : 1;
		b->ndev++;
		sd_bus_emit_object_added(b->bus, d->path);
		sd_bus_emit_signal(b->bus, BUS_PATH, BUS_MANAGER_IFACE, "DeviceAdded", "o", d->path);
		changed = true;
	}
	if (b->ndev == g->ndev)
		b->nomem_logged = false;
	if (changed)
		sd_bus_emit_properties_changed(b->bus, BUS_PATH, BUS_MANAGER_IFACE, "Devices", NULL);
	return changed;
}

uint64_t bus_update(struct bus *b, const struct governor *g, bool changed, uint64_t now_usec)
{
	uint64_t sys_pending = g->vm.dirty + g->vm.writeback;
	bool busy = false;

	if (b->kind == BUS_OFF)
		return UINT64_MAX;
	if (!b->bus) {
		if (now_usec < b->retry_usec)
			return b->retry_usec - now_usec;
		if (connect_bus(b) < 0)
			return BUS_RETRY_USEC;
	}
	if (!b->up) {
		if (bus_stuck(b, now_usec))
			return BUS_RETRY_USEC;
		if (!b->up) /* still connecting: its deadline is in bus_pollfds */
			return UINT64_MAX;
		/* a new connection: every object anew */
		b->ndev = 0;
		changed = true;
	} else if (bus_stuck(b, now_usec)) {
		return BUS_RETRY_USEC;
	}
	if (changed)
		sync_devices(b, g, sys_pending, now_usec);
	if (!changed && !b->mounts_stale && now_usec < b->next_usec)
		return b->wake ? b->next_usec - now_usec : UINT64_MAX;
	for (int i = 0; i < b->ndev; i++) {
		struct bus_dev *d = &b->dev[i];
		const struct gov_dev *gd = gov_dev_of(g, d);
		if (!gd)
			continue; /* the next change removes it */
		if (b->mounts_stale)
			read_mounts(b, &d->n);
		read_now(b, d, gd, sys_pending, now_usec);
		publish(b, d, now_usec);
		busy |= d->n.pending_bytes || d->deferred;
	}
	b->mounts_stale = false;
	procfs_mount_table_free(b->mt);
	b->mt = NULL;
	/* while data drains, every 250 ms; else at the governor's next poll
	 * past a second (no wakeup of our own) */
	b->wake = busy;
	b->next_usec = now_usec + (busy ? BUS_PENDING_USEC : BUS_IDLE_READ_USEC);
	return busy ? BUS_PENDING_USEC : UINT64_MAX;
}

int bus_pollfds(struct bus *b, struct pollfd *pfd, int max, uint64_t now_usec,
		uint64_t *timeout_usec)
{
	int n = 0;
	uint64_t t;

	if (b->more)
		*timeout_usec = 0; /* work left from the last pass */
	if (b->bus && n < max) {
		int fd = sd_bus_get_fd(b->bus), ev = sd_bus_get_events(b->bus);
		if (fd >= 0 && ev >= 0)
			pfd[n++] = (struct pollfd){ .fd = fd, .events = (short)ev };
		if (sd_bus_get_timeout(b->bus, &t) >= 0 && t != UINT64_MAX) {
			t = t > now_usec ? t - now_usec : 0;
			if (t < *timeout_usec)
				*timeout_usec = t;
		}
		/* the deadline to be up, or for the write queue to move */
		t = !b->up ? b->deadline_usec : b->stall_usec ? b->stall_usec + BUS_TIMEOUT_USEC :
			UINT64_MAX;
		if (t != UINT64_MAX) {
			t = t > now_usec ? t - now_usec : 0;
			if (t < *timeout_usec)
				*timeout_usec = t;
		}
	}
	for (int i = 0; i < BUS_MAX_JOBS && n < max; i++)
		if (b->jobs[i].pid && b->jobs[i].fd >= 0)
			pfd[n++] = (struct pollfd){ .fd = b->jobs[i].fd, .events = POLLIN };
	if (!b->bus && b->kind != BUS_OFF && !b->stopping) {
		t = b->retry_usec > now_usec ? b->retry_usec - now_usec : 0;
		if (t < *timeout_usec)
			*timeout_usec = t;
	}
	return n;
}

/* What the child wrote; at its end (EOF), the answer. */
static void job_read(struct bus *b, struct bus_job *j)
{
	ssize_t got = read(j->fd, j->err + j->errlen, sizeof(j->err) - 1 - j->errlen);

	if (got > 0)
		j->errlen += (size_t)got;
	if (got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN) ||
	    j->errlen == sizeof(j->err) - 1)
		job_end(b, j);
}

void bus_dispatch(struct bus *b, const struct pollfd *pfd, int n)
{
	bool process = false;
	uint64_t t;

	for (int i = 0; i < n; i++) {
		if (!pfd[i].revents)
			continue;
		if (b->bus && pfd[i].fd == sd_bus_get_fd(b->bus)) {
			process = true;
			continue;
		}
		for (int k = 0; k < BUS_MAX_JOBS; k++) {
			struct bus_job *j = &b->jobs[k];
			if (j->pid && j->fd == pfd[i].fd)
				job_read(b, j);
		}
	}
	if (!b->bus)
		return;
	if (sd_bus_get_timeout(b->bus, &t) >= 0 && t != UINT64_MAX)
		process = true; /* sd-bus decides whether it is due */
	/* work left from the last pass, in sd-bus's queue: no event says so */
	process |= b->more;
	b->more = false;
	if (process) {
		uint64_t until = mono_usec() + BUS_PASS_USEC;
		int r, handled = 0;
		while ((r = sd_bus_process(b->bus, NULL)) > 0) {
			if (++handled >= BUS_PASS_MESSAGES || mono_usec() >= until) {
				b->more = true; /* the rest at the next pass */
				break;
			}
		}
		if (r < 0)
			lost(b, b->up ? "the connection was lost" : "connecting", r);
	}
}

void bus_stop_begin(struct bus *b)
{
	b->stopping = true;
	auths_drop(b, ERR_BUSY, "wbgovd is stopping");
	for (int i = 0; i < BUS_MAX_JOBS; i++)
		if (b->jobs[i].pid)
			kill(b->jobs[i].pid, SIGTERM);
}

int bus_jobs(const struct bus *b)
{
	int n = 0;

	for (int i = 0; i < BUS_MAX_JOBS; i++)
		n += b->jobs[i].pid != 0;
	return n;
}

/* What is queued gets until `until_usec` to leave: sd_bus_process writes
 * it (and answers what comes in; Sync is refused while stopping). Never
 * sd_bus_flush: it waits without a bound. */
static void flush_bounded(struct bus *b, uint64_t until_usec)
{
	uint64_t queued, now;

	while (b->bus && sd_bus_get_n_queued_write(b->bus, &queued) >= 0 && queued &&
	       (now = mono_usec()) < until_usec) {
		struct pollfd pfd = { .fd = sd_bus_get_fd(b->bus), .events = POLLOUT };
		struct timespec ts = { .tv_sec = (time_t)((until_usec - now) / 1000000),
				       .tv_nsec = (long)((until_usec - now) % 1000000) * 1000 };
		int r, ev = sd_bus_get_events(b->bus);

		if (pfd.fd < 0 || ev < 0)
			break;
		pfd.events = (short)ev;
		if (ppoll(&pfd, 1, &ts, NULL) < 0 && errno != EINTR)
			break;
		/* bounded too: a flood of calls would be answered for ever */
		while ((r = sd_bus_process(b->bus, NULL)) > 0 && mono_usec() < until_usec)
			;
		if (r < 0)
			break;
	}
}

void bus_stop(struct bus *b, uint64_t flush_until_usec)
{
	b->stopping = true;
	for (int i = 0; i < BUS_MAX_JOBS; i++) {
		struct bus_job *j = &b->jobs[i];
		char *name = NULL;
		if (!j->pid)
			continue;
		/* in syncfs (state D): SIGTERM waits for it to return. It goes
		 * on syncing and init reaps it; we do not wait */
		sd_bus_path_decode(j->path, BUS_DEVICE_PREFIX, &name);
		log_warn("Sync of %s: pid %d still running at stop (in a sync, which signals do "
			 "not interrupt); left to finish", name ? name : j->path, (int)j->pid);
		free(name);
		sd_bus_reply_method_errorf(j->call, ERR_SYNC, "wbgovd stopped; the sync goes on "
					   "in process %d", (int)j->pid);
		close(j->fd);
		sd_bus_message_unref(j->call);
		j->pid = 0;
	}
	auths_drop(b, ERR_BUSY, "wbgovd is stopping");
	if (b->bus) {
		if (b->up)
			flush_bounded(b, flush_until_usec);
		b->bus = sd_bus_close_unref(b->bus);
	}
	b->up = false;
	free(b->dev);
	b->dev = NULL;
	b->ndev = b->dev_room = 0;
}
