/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Who may Sync (bus.h is the API): the caller's uid, asked of the bus;
 * for anyone but root, polkit's answer (io.github.wbgov.sync), asked
 * without waiting and bounded (BUS_AUTH_USEC, five minutes when a person
 * may type a password). Calls waiting at once are bounded, and those of
 * one user. A refusal says why, as NotAuthorized. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>

#include "daemon/bus.h"
#include "daemon/busparts.h"
#include "sys/log.h"

#define POLKIT_NAME "org.freedesktop.PolicyKit1"
#define POLKIT_PATH "/org/freedesktop/PolicyKit1/Authority"
#define POLKIT_IFACE "org.freedesktop.PolicyKit1.Authority"

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
	struct bus_dev *d = bus_dev_by_path(b, a->path);
	sd_bus_error err = SD_BUS_ERROR_NULL;
	int r;

	if (!d)
		r = sd_bus_error_setf(&err, ERR_GONE, "the device is gone");
	else
		r = bus_sync_start(b, d, a->call, a->uid, &err);
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
		    bus_mono_usec() - a->asked_usec < auth_usec(a) / 2) {
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
	struct bus_dev *d = bus_dev_by_path(b, a->path);
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
	a->asked_usec = bus_mono_usec();
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

static struct bus_auth *auth_free(struct bus *b)
{
	for (int i = 0; i < BUS_AUTH_SLOTS; i++)
		if (!b->auths[i].call)
			return &b->auths[i];
	return NULL;
}

/* Sync's caller, once its options are read: who calls is asked of the
 * bus (creds_reply), and the call waits in a slot of b->auths. */
int bus_auth_ask(struct bus *b, struct bus_dev *d, sd_bus_message *m, bool no_interaction,
		 sd_bus_error *err)
{
	struct bus_auth *a;
	int r;

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
void bus_auths_drop(struct bus *b, const char *name, const char *msg)
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
