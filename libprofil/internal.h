/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libprofil internals, shared by the library's files and its unit tests
 * (which link libprofil.a and may call these hidden functions).
 */
#ifndef LIBPROFIL_INTERNAL_H
#define LIBPROFIL_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define PROFIL_EXPORT __attribute__((visibility("default")))

struct mnl_socket;
struct nlattr;
struct nlmsghdr;
struct profil_params;
struct profil_status;

/* error.c: per-thread last error and extack text. */
void pf_err_clear(void);
/* @err is a positive errno; @extack may be NULL. Also sets errno. */
void pf_err_set(int err, const char *extack);

/* nl.c: the netlink helper layer. */
#define PF_NL_BUFSIZE 32768

struct pf_nl {
	struct mnl_socket *sock;
	unsigned int portid;
	unsigned int seq;
	uint16_t family;
	uint32_t version;
	uint32_t maxattr;
	uint32_t mcgrp_events;	/* 0: the kernel announced no such group */
	pid_t owner;		/* the process that opened the socket */
	char buf[PF_NL_BUFSIZE];
};

/* session.c: the handle behind the opaque struct profil_handle. */
struct profil_handle {
	struct pf_nl nl;
	struct pf_nl *ev;	/* the event socket, once subscribed */
};

/* Clears the last error; -1 with EINVAL for a NULL or closed handle. */
int pf_check_handle(const struct profil_handle *h);
/* pf_check_handle(), and -1 with EINVAL for a NULL required @arg too. */
int pf_check_handle_arg(const struct profil_handle *h, const void *arg);

/* Each returns 0 or -1 with errno (and the last error) set. */
int pf_nl_open(struct pf_nl *nl);
int pf_nl_resolve(struct pf_nl *nl);
void pf_nl_close(struct pf_nl *nl);

/* Starts a request for @cmd of the profil family in nl->buf. */
struct nlmsghdr *pf_nl_request(struct pf_nl *nl, uint8_t cmd, uint16_t flags);

/*
 * Sends @nlh and reads replies until the ACK, NLMSG_DONE or an error.
 * @cb sees every message of the resolved family; may be NULL.
 */
typedef int (*pf_nl_cb)(const struct nlmsghdr *nlh, void *data);
int pf_nl_talk(struct pf_nl *nl, struct nlmsghdr *nlh, pf_nl_cb cb,
	       void *data);

/*
 * A dump of @cmd, each message to @cb, which sets *@stopped to a caller's
 * callback's non-zero value to stop the walk (the rest is drained).
 * Return: 0; *@stopped if positive, 1 if negative (-1 is the library's
 * alone, with errno set: a callback's own -1 must not pass for a failure
 * whose errno is stale); or -1.
 */
int pf_nl_dump(struct pf_nl *nl, uint8_t cmd, pf_nl_cb cb, void *data,
	       const int *stopped);

/*
 * Parses a GET reply or STOPPED event of the profil family; with @stats,
 * also every counter by enum profil_stat into its first @n slots.
 */
int pf_nl_parse_status(const struct nlmsghdr *nlh, struct profil_status *st,
		       uint64_t *stats, size_t n);

/*
 * Parses a nest of u64 counters (PROFIL_ATTR_STATS, PROFIL_IMAGE_STATS,
 * PROFIL_ATTR_PROFILE_STATS) into @v by type, the first @n slots; newer
 * types are skipped. -1 with EPROTO set if malformed.
 */
int pf_nl_parse_counters(const struct nlattr *nest, uint64_t *v, size_t n);

/* Room for the netlink and generic netlink headers of a request. */
#define PF_NL_HDRS_LEN (MNL_NLMSG_HDRLEN + MNL_ALIGN(sizeof(struct genlmsghdr)))

/* Starts a request for @cmd in @buf, of pf_regions_msg_len() bytes or more. */
struct nlmsghdr *pf_nl_request_in(struct pf_nl *nl, void *buf, uint8_t cmd,
				  uint16_t flags);

/* regions.c: a region set's netlink form. */
struct profil_regions;
/* The bytes a request carrying @r (and a few u32 attributes) needs. */
size_t pf_regions_msg_len(const struct profil_regions *r);
/* One PROFIL_ATTR_REGION nest per region of @r. */
void pf_regions_put(struct nlmsghdr *nlh, const struct profil_regions *r);
/* Appends the regions of a GET_REGIONS message; -1 and errno set. */
int pf_regions_parse(const struct nlmsghdr *nlh, struct profil_regions *r);
/* Takes COUNTER and MODE from a GET reply; -1 and errno set. */
int pf_regions_parse_rules(const struct nlmsghdr *nlh,
			   struct profil_regions *r);

/* session.c: a START carrying the set @r, its counter and its mode. */
int pf_nl_start_regions(struct pf_nl *nl, pid_t pid,
			const struct profil_regions *r, uint32_t rate,
			uint32_t flags);

/* Builds the attributes of a START request from @p. */
void pf_nl_put_params(struct nlmsghdr *nlh, const struct profil_params *p);

/* profil.c */
/* The rate profil() asks for: $PROFIL_HZ, or 0 (kernel default). -1: bad. */
int pf_profil_env_rate(void);
/* The rate actually in force for a rate request of @rate (0: default). */
uint32_t pf_rate_effective(int rate);
/* profil() proper, also used by moncontrol() and monitor(). */
int pf_profil(unsigned short *buf, size_t bufsiz, size_t offset,
	      unsigned int scale);
/*
 * Runs @fn on profil()'s shared socket, opened and resolved, under its
 * lock, so that the drop-ins' round trips never interleave. A bare ENOENT
 * from @fn (no extack: the family went away) resolves again and runs @fn
 * once more. Return: @fn's value, or -1 with errno ENOSYS when the family
 * does not exist, or another errno of the socket.
 */
typedef int (*pf_shared_fn)(struct pf_nl *nl, void *arg);
int pf_shared_run(pf_shared_fn fn, void *arg);
/*
 * pf_profil() for monstartup() and moncontrol(): refuses with EBUSY to
 * replace an active session of this process on another buffer (one that
 * another tool started); a GET before the START.
 */
int pf_profil_own(unsigned short *buf, size_t bufsiz, size_t offset,
		  unsigned int scale);
/* Drops the shared socket (tests, and after fork). */
void pf_profil_reset(void);
/*
 * Registers, once, the fork handlers of profil()'s lock. A module whose
 * lock is held while calling pf_profil() calls this before registering
 * its own handlers: prepare handlers run in reverse order of
 * registration, so fork() then takes the outer lock before pf_lock, the
 * order every other path takes them in.
 */
void pf_profil_atfork(void);

/* gmon.c: the gmon.out file (the writer is profil_gmon_write()). */
/* Load bias of the main program (0 for a non-PIE executable). */
uint64_t pf_gmon_load_bias(void);
/* Output file name into @buf: $GMON_OUT_PREFIX.<pid> or gmon.out. */
int pf_gmon_filename(char *buf, size_t len);
/* The same, but gmon.out.<pid> instead of gmon.out if @forked. */
int pf_gmon_name(char *buf, size_t len, bool forked);
/*
 * Removes the load bias from run-time [lowpc, highpc), writes the file
 * atomically, and reports failures on stderr as "<who>: <file>: <error>".
 */
int pf_gmon_save(const char *who, uint64_t lowpc, uint64_t highpc,
		 const unsigned short *bins, size_t nbins, uint32_t rate);

/*
 * What pf_gmon_save_out() writes: the histogram, then @narcs arcs in
 * run-time addresses (the load bias is subtracted in place), to the file
 * of a forked child if @forked.
 */
struct profil_gmon_arc;
struct pf_gmon_out {
	uint64_t lowpc;
	uint64_t highpc;
	const unsigned short *bins;
	size_t nbins;
	uint32_t rate;
	struct profil_gmon_arc *arcs;
	size_t narcs;
	bool forked;
};
int pf_gmon_save_out(const char *who, struct pf_gmon_out *o);

/* mcount.c: the table the mcount stubs record into. */
extern struct pf_arcs pf_pg_arcs;

/* mcount.c / monitor.c: forget all state (tests). */
void pf_mcount_reset(void);
void pf_monitor_reset(void);

/* Geometry of monitor(): power-of-two bytes per bin covering the range. */
struct pf_geometry {
	uint64_t low_pc;
	uint64_t high_pc;
	uint32_t scale;
	size_t nbins;
};
int pf_geometry(uint64_t lowpc, uint64_t highpc, size_t maxbins,
		struct pf_geometry *g);

/*
 * arcs.c: the call-graph arc table of the -pg runtime (see arcs.c).
 * Offsets are from lowpc; a key is (from << 32) | self, 0 when free.
 */
#define PF_ARCS_MIN_SLOTS	16
#define PF_ARCS_DEF_SLOTS	4096		/* pf_arcs_slots()'s least */
#define PF_ARCS_MAX_SLOTS	(1UL << 22)	/* 64 MiB, touched as used */
#define PF_ARCS_PROBES		64

struct pf_arc {
	uint64_t key;
	uint64_t count;
};

struct pf_arcs {
	uint64_t limit;		/* textsize when recording, 0 when off */
	struct pf_arc *slot;
	uint64_t mask;
	unsigned int shift;	/* 64 - log2(nslots) */
	uint64_t lowpc;
	uint64_t textsize;	/* at most UINT32_MAX */
	size_t nslots;
	uint64_t lost;		/* calls that found no free slot */
	uint64_t foreign;	/* calls of functions outside the text */
};

struct pf_arcs_totals {
	uint64_t arcs;		/* arcs whose caller lies in the text */
	uint64_t calls;		/* their calls */
	uint64_t spontaneous;	/* calls from outside the text (dropped) */
	uint64_t lost;
	uint64_t foreign;
};

/* Slots for a text of @textsize bytes: a power of two. */
size_t pf_arcs_slots(uint64_t textsize);
/* At least @nslots slots (rounded up to a power of two) for [lowpc,
 * highpc), which must span 1 to 2^32 - 1 bytes. 0, or -1 with errno. */
int pf_arcs_init(struct pf_arcs *a, uint64_t lowpc, uint64_t highpc,
		 size_t nslots);
void pf_arcs_free(struct pf_arcs *a);
/* Starts or stops pf_arcs_record() (off after pf_arcs_init()). */
void pf_arcs_set_on(struct pf_arcs *a, bool on);
/* Forgets every arc and counter (a forked child). */
void pf_arcs_clear(struct pf_arcs *a);
/* Adds @n calls to the arc of @key: 0, or -1 when lost (counted). */
int pf_arcs_add(struct pf_arcs *a, uint64_t key, uint64_t n);
/*
 * One call from @frompc to the function of @selfpc (run-time PCs), if
 * @a is on. The mcount stubs call it on pf_pg_arcs (mcount.c).
 */
void pf_arcs_record(struct pf_arcs *a, uint64_t frompc, uint64_t selfpc);
/*
 * Copies up to @max arcs whose caller lies in the text to @out (run-time
 * addresses) and
 * returns how many; *@t gets the totals of the whole table.
 */
size_t pf_arcs_collect(const struct pf_arcs *a, struct profil_gmon_arc *out,
		       size_t max, struct pf_arcs_totals *t);

#endif /* LIBPROFIL_INTERNAL_H */
